#include <catch2/catch.hpp>

#include "lint/lint_support.h"

using namespace qsel;
using namespace qsel::test;

TEST_CASE("QS016 native-and-emulated fires on a part in both lists", "[lint][QS016]") {
  TempDir d;
  d.write("targets/sm90.yaml", minimal_record("target", "sm90"));
  d.write("accelerators/h100-sxm.yaml", minimal_record("accelerator", "h100-sxm"));
  d.write("accelerators/a10.yaml", minimal_record("accelerator", "a10"));
  d.write("formats/fp8.yaml", minimal_record("format", "fp8", "native_support: [h100-sxm]\nemulated_support:\n- a10\n- h100-sxm\n"));
  auto f = lint_code(d.path(), "QS016");
  REQUIRE(f.size() == 1);
  CHECK(where(f[0], d.path()) == "formats/fp8.yaml:9:3: \"h100-sxm\" is in both native_support and emulated_support; a "
                                 "part is one or the other for a format");
}

TEST_CASE("QS016 native-and-emulated is clean when the lists are disjoint", "[lint][QS016]") {
  TempDir d;
  d.write("targets/sm90.yaml", minimal_record("target", "sm90"));
  d.write("accelerators/h100-sxm.yaml", minimal_record("accelerator", "h100-sxm"));
  d.write("accelerators/a10.yaml", minimal_record("accelerator", "a10"));
  d.write("formats/fp8.yaml", minimal_record("format", "fp8", "native_support: [h100-sxm]\nemulated_support: [a10]\n"));
  CHECK(lint_code(d.path(), "QS016").empty());
}
