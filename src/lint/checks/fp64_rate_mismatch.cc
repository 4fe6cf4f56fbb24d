// QS036: an accelerator's FP64 figures filled with the other definition.
#include <algorithm>

#include <fmt/format.h>

#include "checks.h"
#include "util.h"

namespace qsel::lint_checks {
namespace {

constexpr RuleInfo kInfo{
    "QS036", "fp64-rate-mismatch", Severity::Error, false,
    "An accelerator's FP64 rates do not fit their definitions: vector and matrix rates swapped or mixed.",
    {R"(An accelerator whose `tflops` has `fp64_matrix` (the FP64 Tensor Core / Matrix Core rate) while its target has no `fp64` in `tensor_core_precisions`; or `fp64_vector` above `fp64_matrix`; or, on a part whose target does compute FP64 on its tensor cores, only one of the two keys (write `null` for a rate the vendor does not publish).)",
     R"(Vendors publish two FP64 numbers for parts with FP64 matrix units — NVIDIA's A100 "FP64 9.7 / FP64 Tensor Core 19.5", AMD's MI300X "FP64 vector 81.7 / FP64 matrix 163.4" — and one for the rest. A single `fp64` field collected whichever one a datasheet showed first, so the corpus compared an A100's tensor rate with an MI300X's vector rate. The schema now states each definition; this rule keeps a figure from landing in the other one.)",
     R"(# accelerators/v100s.yaml (target sm70: no FP64 tensor cores)
tflops:
  fp64_matrix: 8.2)",
     R"(accelerators/v100s.yaml:3:16: error: fp64_matrix is 8.2, but target sm70 has no FP64 tensor cores: a single FP64 figure on this part is the vector rate (fp64_vector) [QS036 fp64-rate-mismatch])",
     R"(Read the datasheet's two rows and put each under its key: `fp64_vector` for "FP64" / "FP64 vector", `fp64_matrix` for "FP64 Tensor Core" / "FP64 matrix". On a part without FP64 matrix units there is only `fp64_vector`.)"}};

bool has_fp64_mma(const Record& target) {
  auto p = target.strings("/tensor_core_precisions");
  return std::find(p.begin(), p.end(), "fp64") != p.end();
}

void check_part(CheckContext& c, const Record& a) {
  const json& t = field(a, "tflops");
  if (!t.is_object()) return;
  const Record* target = c.graph().find(a.str("target"));
  if (!target || target->kind != Kind::Target) return;
  bool mma = has_fp64_mma(*target);
  const json* vec = t.contains("fp64_vector") ? &t["fp64_vector"] : nullptr;
  const json* mat = t.contains("fp64_matrix") ? &t["fp64_matrix"] : nullptr;
  if (mat && mat->is_number() && !mma) {
    c.report(a, "/tflops/fp64_matrix",
             fmt::format("fp64_matrix is {}, but target {} has no FP64 tensor cores: a single FP64 figure on this part is the vector "
                         "rate (fp64_vector)",
                         fmt::format("{:g}", mat->get<double>()), target->id));
    return;
  }
  if (vec && mat && vec->is_number() && mat->is_number() && vec->get<double>() > mat->get<double>()) {
    c.report(a, "/tflops/fp64_vector",
             fmt::format("fp64_vector {} is above fp64_matrix {}: the matrix rate is never the slower one; are they swapped?",
                         fmt::format("{:g}", vec->get<double>()), fmt::format("{:g}", mat->get<double>())));
    return;
  }
  if (mma && (vec != nullptr) != (mat != nullptr))
    c.report(a, vec ? "/tflops/fp64_vector" : "/tflops/fp64_matrix",
             fmt::format("target {} computes FP64 on its tensor cores, so vendors publish two FP64 rates; give fp64_{} too (null "
                         "when it is not published)",
                         target->id, vec ? "matrix" : "vector"));
}

constexpr KeptField kReads[] = {{Kind::Accelerator, "/tflops"}, {Kind::Accelerator, "/target"},
                                {Kind::Target, "/tensor_core_precisions"}};

void run(CheckContext& c) {
  for (const Record* a : c.graph().of_kind(Kind::Accelerator)) check_part(c, *a);
}

}  // namespace

Check fp64_rate_mismatch() { return {.info = &kInfo, .run = run, .reads = kReads}; }

}  // namespace qsel::lint_checks
