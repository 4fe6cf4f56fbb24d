#include <catch2/catch.hpp>

#include "lint/lint_support.h"

using namespace qsel;
using namespace qsel::test;

namespace {

std::string format_with(const std::string& lists, const std::string& entry) {
  return minimal_record("format", "fp8-blockwise", lists + "contested_by:\n" + entry);
}

const std::string kCode = "  source: {title: vLLM scaled_mm_entry.cu}\n";

}  // namespace

TEST_CASE("QS037 contested-outranks-record fires when the record keeps the lower source, or contests nothing", "[lint][QS037]") {
  TempDir d;
  d.write("formats/fp8-blockwise.yaml",
          format_with("emulated_support: [h100-sxm]\n",
                      "- field: emulated_support\n  parts: [h100-sxm]\n  listed: false\n  tier: engine-code\n  record_tier: census\n" + kCode));
  d.write("formats/fp8-e4m3.yaml",
          replaced(format_with("native_support: [l40s]\n",
                               "- field: native_support\n  parts: [l40s]\n  listed: true\n  tier: census\n  record_tier: engine-code\n" + kCode),
                   "id: fp8-blockwise", "id: fp8-e4m3"));
  auto f = lint_code(d.path(), "QS037");
  REQUIRE(f.size() == 2);
  CHECK(where(f[0], d.path()) == "formats/fp8-blockwise.yaml:8:3: contested_by[0] is engine-code, above the census source the record's "
                                 "emulated_support follows: make the record say what the engine-code source says and keep the census "
                                 "claim here instead");
  CHECK(where(f[1], d.path()) == "formats/fp8-e4m3.yaml:9:10: contested_by[0] says l40s belong in native_support, and so does the "
                                 "record: there is nothing to contest for it");
}

TEST_CASE("QS037 contested-outranks-record is clean on lower sources that disagree", "[lint][QS037]") {
  TempDir d;
  d.write("formats/fp8-blockwise.yaml",
          format_with("native_support: [h100-sxm]\nweight_group_size: 128\n",
                      "- field: emulated_support\n  parts: [h100-sxm]\n  listed: true\n  tier: census\n  record_tier: engine-code\n" + kCode +
                          "- field: weight_group_size\n  value: 32\n  tier: census\n  record_tier: engine-code\n" + kCode));
  CHECK(lint_code(d.path(), "QS037").empty());
}
