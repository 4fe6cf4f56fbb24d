#include <catch2/catch.hpp>

#include "lint/lint_support.h"

using namespace qsel;
using namespace qsel::test;

namespace {

void census_corpus(const TempDir& d, const std::string& census) {
  d.write("targets/sm89.yaml", minimal_record("target", "sm89"));
  d.write("accelerators/rtx-4090.yaml", replaced(minimal_record("accelerator", "rtx-4090", census), "target: sm90", "target: sm89"));
  d.write("formats/a.yaml", minimal_record("format", "a", "native_support: [rtx-4090]\n"));
  d.write("formats/b.yaml", minimal_record("format", "b", "emulated_support: [rtx-4090]\n"));
}

}  // namespace

TEST_CASE("QS025 census-mismatch fires when the tally moved", "[lint][QS025]") {
  TempDir d;
  census_corpus(d, "census:\n  native: 2\n  emulated: 1\n");
  auto f = lint_code(d.path(), "QS025");
  REQUIRE(f.size() == 1);
  CHECK(where(f[0], d.path()) == "accelerators/rtx-4090.yaml:7:11: census.native is 2 (no source given), but 1 format record "
                                 "list rtx-4090 in native_support: a");
}

TEST_CASE("QS025 with the counted formats named: the finding lands on the format just edited, naming the census", "[lint][QS025]") {
  TempDir d;
  census_corpus(d, "census:\n  native: 1\n  native_formats: [a]\n  emulated: 1\n  emulated_formats: [b]\n  source: doc 04 §3.2\n");
  CHECK(lint_code(d.path(), "QS025").empty());
  // A copy of format a: it lists rtx-4090 too, and the census does not count it.
  d.write("formats/a-copy.yaml", minimal_record("format", "a-copy", "native_support: [rtx-4090]\n"));
  auto f = lint_code(d.path(), "QS025");
  REQUIRE(f.size() == 1);
  CHECK(where(f[0], d.path()) == "formats/a-copy.yaml:6:18: lists rtx-4090 in native_support, but rtx-4090's census (" +
                                     (d.path() / "accelerators/rtx-4090.yaml").lexically_normal().generic_string() +
                                     ", doc 04 §3.2) counts 1 native format without this one: a");
}

TEST_CASE("QS025 names a counted format that no longer lists the part, and a count that disagrees with its list", "[lint][QS025]") {
  TempDir d;
  census_corpus(d, "census:\n  native: 2\n  native_formats: [a, b]\n");
  auto f = lint_code(d.path(), "QS025");
  REQUIRE(f.size() == 1);
  CHECK(where(f[0], d.path()) == "accelerators/rtx-4090.yaml:8:23: census.native_formats counts b, but b does not list "
                                 "rtx-4090 in native_support; the formats that do: a");
  TempDir e;
  census_corpus(e, "census:\n  native: 3\n  native_formats: [a]\n");
  auto g = lint_code(e.path(), "QS025");
  REQUIRE(g.size() == 1);
  CHECK(where(g[0], e.path()) == "accelerators/rtx-4090.yaml:7:11: census.native is 3, but census.native_formats names 1 format: a");
}

TEST_CASE("QS025 census-mismatch is clean when the counts agree", "[lint][QS025]") {
  TempDir d;
  census_corpus(d, "census: {native: 1, emulated: 1}\n");
  CHECK(lint_code(d.path(), "QS025").empty());
}
