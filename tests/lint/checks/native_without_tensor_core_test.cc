#include <catch2/catch.hpp>

#include "lint/lint_support.h"

using namespace qsel;
using namespace qsel::test;

namespace {

void write_tensorless_parts(const TempDir& d) {
  d.write("targets/sm90.yaml", minimal_record("target", "sm90", "tensor_core_precisions: [fp16, bf16, fp8, int8]\n"));
  d.write("targets/sm100.yaml", minimal_record("target", "sm100", "tensor_core_precisions: [fp16, fp8, fp4, int8]\n"));
  d.write("accelerators/h100-sxm.yaml", minimal_record("accelerator", "h100-sxm"));
  d.write("accelerators/b200.yaml", replaced(minimal_record("accelerator", "b200"), "target: sm90", "target: sm100"));
}

}  // namespace

TEST_CASE("QS017 native-without-tensor-core fires on W4A4 native where the target has no FP4 path", "[lint][QS017]") {
  TempDir d;
  write_tensorless_parts(d);
  d.write("formats/nvfp4.yaml", replaced(minimal_record("format", "nvfp4", "requires_tensor_core: [fp4]\nnative_support: [b200, h100-sxm]\n"),
                                         "regime: w4a16", "regime: w4a4"));
  auto f = lint_code(d.path(), "QS017");
  REQUIRE(f.size() == 1);
  CHECK(where(f[0], d.path()) == "formats/nvfp4.yaml:7:24: native on h100-sxm, whose target sm90 has no fp4 "
                                 "tensor-core path (requires_tensor_core: fp4); list it in emulated_support");
}

TEST_CASE("QS017 native-without-tensor-core is clean where every native target has the precision", "[lint][QS017]") {
  TempDir d;
  write_tensorless_parts(d);
  d.write("formats/nvfp4.yaml", minimal_record("format", "nvfp4", "requires_tensor_core: [fp4]\nnative_support: [b200]\nemulated_support: [h100-sxm]\n"));
  d.write("formats/fp8.yaml", minimal_record("format", "fp8", "requires_tensor_core: [fp8]\nnative_support: [b200, h100-sxm]\n"));
  CHECK(lint_code(d.path(), "QS017").empty());
}
