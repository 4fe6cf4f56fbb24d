#include <catch2/catch.hpp>

#include "lint/lint_support.h"

using namespace qsel;
using namespace qsel::test;

namespace {

void targets(const TempDir& d) {
  d.write("targets/sm70.yaml", minimal_record("target", "sm70", "tensor_core_precisions: [fp16]\n"));
  d.write("targets/sm90.yaml", minimal_record("target", "sm90", "tensor_core_precisions: [fp64, fp16, fp8]\n"));
}

std::string part(const std::string& id, const std::string& target, const std::string& tflops) {
  return replaced(minimal_record("accelerator", id, "tflops:\n" + tflops), "target: sm90", "target: " + target);
}

}  // namespace

TEST_CASE("QS036 fp64-rate-mismatch fires on a matrix rate without FP64 tensor cores, swapped rates and a missing twin",
          "[lint][QS036]") {
  TempDir d;
  targets(d);
  d.write("accelerators/v100s.yaml", part("v100s", "sm70", "  fp64_matrix: 8.2\n"));
  d.write("accelerators/h100.yaml", part("h100", "sm90", "  fp64_vector: 67\n  fp64_matrix: 34\n"));
  d.write("accelerators/h200.yaml", part("h200", "sm90", "  fp64_vector: 34\n"));
  auto f = lint_code(d.path(), "QS036");
  REQUIRE(f.size() == 3);
  CHECK(where(f[0], d.path()) == "accelerators/h100.yaml:7:16: fp64_vector 67 is above fp64_matrix 34: the matrix rate is never the "
                                 "slower one; are they swapped?");
  CHECK(where(f[1], d.path()) == "accelerators/h200.yaml:7:16: target sm90 computes FP64 on its tensor cores, so vendors publish two "
                                 "FP64 rates; give fp64_matrix too (null when it is not published)");
  CHECK(where(f[2], d.path()) == "accelerators/v100s.yaml:7:16: fp64_matrix is 8.2, but target sm70 has no FP64 tensor cores: a "
                                 "single FP64 figure on this part is the vector rate (fp64_vector)");
}

TEST_CASE("QS036 fp64-rate-mismatch is clean on rates under their definitions", "[lint][QS036]") {
  TempDir d;
  targets(d);
  d.write("accelerators/v100s.yaml", part("v100s", "sm70", "  fp64_vector: 8.2\n"));
  d.write("accelerators/h100.yaml", part("h100", "sm90", "  fp64_vector: 34\n  fp64_matrix: 67\n"));
  d.write("accelerators/h20.yaml", part("h20", "sm90", "  fp64_vector: 1\n  fp64_matrix: null\n"));
  d.write("accelerators/b200.yaml", part("b200", "sm90", "  fp64_vector: 37\n  fp64_matrix: 37\n"));
  CHECK(lint_code(d.path(), "QS036").empty());
}
