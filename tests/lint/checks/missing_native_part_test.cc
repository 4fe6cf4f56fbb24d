#include <catch2/catch.hpp>

#include "lint/lint_support.h"

using namespace qsel;
using namespace qsel::test;

namespace {

// Two sm89 parts (FP8 tensor cores) and one sm86 part (none).
void write_missing_parts(const TempDir& d) {
  d.write("targets/sm89.yaml", minimal_record("target", "sm89", "tensor_core_precisions: [fp16, fp8, int8]\nblock_scaled_mma: false\n"));
  d.write("targets/sm86.yaml", minimal_record("target", "sm86", "tensor_core_precisions: [fp16, int8]\n"));
  d.write("accelerators/l40s.yaml", replaced(minimal_record("accelerator", "l40s"), "target: sm90", "target: sm89"));
  d.write("accelerators/rtx-4090.yaml", replaced(minimal_record("accelerator", "rtx-4090"), "target: sm90", "target: sm89"));
  d.write("accelerators/a10.yaml", replaced(minimal_record("accelerator", "a10"), "target: sm90", "target: sm86"));
}

std::string fp8(const std::string& extra) {
  return minimal_record("format", "fp8-e4m3", "hardware_path: native-compute\nrequires_tensor_core: [fp8]\n" + extra);
}

}  // namespace

TEST_CASE("QS033 missing-native-part fires on a part of an FP8 target left off the native list", "[lint][QS033]") {
  TempDir d;
  write_missing_parts(d);
  d.write("formats/fp8-e4m3.yaml", fp8("native_support: [l40s]\nemulated_support: [a10]\n"));
  auto f = lint_code(d.path(), "QS033");
  REQUIRE(f.size() == 1);
  CHECK(where(f[0], d.path()) ==
        "formats/fp8-e4m3.yaml:8:17: target sm89 has fp8 tensor cores, but rtx-4090 is not in native_support and no not_native "
        "entry says why");
}

TEST_CASE("QS033 missing-native-part is clean when every such part is listed or excused", "[lint][QS033]") {
  TempDir d;
  write_missing_parts(d);
  d.write("formats/fp8-e4m3.yaml", fp8("native_support: [l40s, rtx-4090]\n"));
  d.write("formats/fp8-rowwise.yaml",
          replaced(fp8("native_support: [l40s]\nnot_native:\n- parts: [rtx-4090]\n  reason: recipe not built for it\n  source: {title: t}\n"),
                   "id: fp8-e4m3", "id: fp8-rowwise"));
  d.write("formats/fp8-block.yaml",
          replaced(fp8("not_native:\n- targets: [sm89]\n  reason: no block GEMM\n  source: {title: t}\n"), "id: fp8-e4m3", "id: fp8-block"));
  // A block-scaled format needs block_scaled_mma, which sm89 lacks; a toolkit format is not a silicon statement.
  d.write("formats/mxfp8.yaml",
          replaced(fp8("requires_block_scaled_mma: true\n"), "id: fp8-e4m3", "id: mxfp8"));
  d.write("formats/modelopt.yaml", minimal_record("format", "modelopt", "hardware_path: toolkit-kernel\nrequires_tensor_core: [fp8]\n"));
  CHECK(lint_code(d.path(), "QS033").empty());
}
