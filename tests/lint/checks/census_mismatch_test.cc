#include <catch2/catch.hpp>

#include "lint/lint_support.h"

using namespace qsel;
using namespace qsel::test;

namespace {

void corpus(const TempDir& d, const std::string& census) {
  d.write("targets/sm89.yaml", minimal_record("target", "sm89"));
  d.write("accelerators/rtx-4090.yaml", replaced(minimal_record("accelerator", "rtx-4090", census), "target: sm90", "target: sm89"));
  d.write("formats/a.yaml", minimal_record("format", "a", "native_support: [rtx-4090]\n"));
  d.write("formats/b.yaml", minimal_record("format", "b", "emulated_support: [rtx-4090]\n"));
}

}  // namespace

TEST_CASE("QS025 census-mismatch fires when the tally moved", "[lint][QS025]") {
  TempDir d;
  corpus(d, "census:\n  native: 2\n  emulated: 1\n");
  auto f = lint_code(d.path(), "QS025");
  REQUIRE(f.size() == 1);
  CHECK(where(f[0], d.path()) == "accelerators/rtx-4090.yaml:7:11: census.native is 2, but 1 format record list "
                                 "rtx-4090 in native_support");
}

TEST_CASE("QS025 census-mismatch is clean when the counts agree", "[lint][QS025]") {
  TempDir d;
  corpus(d, "census: {native: 1, emulated: 1}\n");
  CHECK(lint_code(d.path(), "QS025").empty());
}
