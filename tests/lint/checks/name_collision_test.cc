#include <catch2/catch.hpp>

#include "lint/lint_support.h"

using namespace qsel;
using namespace qsel::test;

namespace {

void collision_corpus(const TempDir& d) {
  d.write("targets/sm89.yaml", minimal_record("target", "sm89"));
  d.write("accelerators/rtx-4090.yaml",
          replaced(minimal_record("accelerator", "rtx-4090", "aliases: ['4090', rtx 4090, geforce rtx 4090]\n"), "target: sm90",
                   "target: sm89"));
}

std::string file(const TempDir& d, const char* rel) { return (d.path() / rel).lexically_normal().generic_string(); }

}  // namespace

TEST_CASE("QS032 name-collision fires once for a copy that keeps the original's aliases, naming every shared name", "[lint][QS032]") {
  TempDir d;
  collision_corpus(d);
  CHECK(lint_code(d.path(), "QS032").empty());
  d.write("accelerators/rtx-4090-oc.yaml",
          replaced(minimal_record("accelerator", "rtx-4090-oc", "aliases: ['4090', rtx 4090, geforce rtx 4090]\n"), "target: sm90",
                   "target: sm89"));
  auto f = lint_code(d.path(), "QS032");
  REQUIRE(f.size() == 1);
  CHECK(where(f[0], d.path()) == "accelerators/rtx-4090-oc.yaml:6:11: alias \"4090\" is also a name of rtx-4090 (" +
                                     file(d, "accelerators/rtx-4090.yaml") +
                                     ":6:11) (and 2 more shared names: \"rtx 4090\" \"geforce rtx 4090\"): a query for it cannot "
                                     "tell the two apart");
  CHECK(f[0].record == "rtx-4090-oc");
}

TEST_CASE("QS032: an alias equal to another record's id is reported on the alias, other kinds may share a name", "[lint][QS032]") {
  TempDir d;
  collision_corpus(d);
  d.write("accelerators/a.yaml", replaced(minimal_record("accelerator", "a", "aliases: [RTX-4090]\n"), "target: sm90", "target: sm89"));
  d.write("formats/rtx-4090-format.yaml", minimal_record("format", "rtx-4090-format", "aliases: ['4090']\n"));
  auto f = lint_code(d.path(), "QS032");
  REQUIRE(f.size() == 1);
  CHECK(where(f[0], d.path()) == "accelerators/a.yaml:6:11: alias \"RTX-4090\" is also a name of rtx-4090 (" +
                                     file(d, "accelerators/rtx-4090.yaml") + ":1:5): a query for it cannot tell the two apart");
}

TEST_CASE("QS032: accelerator spellings collide once vendor words are set aside", "[lint][QS032]") {
  TempDir d;
  collision_corpus(d);
  d.write("accelerators/b.yaml",
          replaced(minimal_record("accelerator", "b", "aliases: [NVIDIA GeForce RTX 4090]\n"), "target: sm90", "target: sm89"));
  auto f = lint_code(d.path(), "QS032");
  REQUIRE(f.size() == 1);
  CHECK(f[0].message.find("alias \"NVIDIA GeForce RTX 4090\" is also a name of rtx-4090") == 0);
  CHECK(f[0].message.find("once vendor words are set aside (\"rtx 4090\")") != std::string::npos);
}

TEST_CASE("QS032 name-collision is clean on the real corpus", "[whole-corpus][lint][QS032]") {
  CHECK(lint_code(source_dir() + "/data", "QS032").empty());
}
