// QS017: a format that needs a tensor-core precision claims native support on a
// part whose target has no such tensor-core path.
#include <algorithm>

#include <fmt/format.h>

#include "checks.h"
#include "util.h"

namespace qsel::lint_checks {
namespace {

constexpr RuleInfo kInfo{
    "QS017", "native-without-tensor-core", Severity::Error, false,
    "A format that needs a tensor-core precision is native on a part whose target lacks it.",
    {R"(A format with `requires_tensor_core` (for example `[fp4]` for NVFP4 and other W4A4 formats, `[fp8]` for FP8 W8A8) that lists an accelerator in `native_support` whose target record (`accelerator.target`) does not have every one of those precisions in `tensor_core_precisions`.)",
     R"(W4A4 is only real where 4-bit operands reach a tensor core. On a part without an FP4 (or INT4) tensor-core path the format is served as W4A16 — memory saving, no compute speedup — so a native entry there is exactly the confusion doc 04 warns about ("my GPU runs NVFP4").)",
     R"(# formats/nvfp4.yaml
id: nvfp4
regime: w4a4
requires_tensor_core: [fp4]
native_support:
- h100-sxm        # target sm90: fp16, bf16, fp8, int8 — no fp4)",
     R"(formats/nvfp4.yaml:6:3: error: native on h100-sxm, whose target sm90 has no fp4 tensor-core path (requires_tensor_core: fp4); list it in emulated_support [QS017 native-without-tensor-core])",
     R"(Move the accelerator to `emulated_support`. If the target really has the precision, add it to the target record's `tensor_core_precisions`, with a source.)"}};

std::vector<std::string> missing(const Record& target, const std::vector<std::string>& needed) {
  std::vector<std::string> have = target.strings("/tensor_core_precisions"), out;
  for (const auto& p : needed)
    if (std::find(have.begin(), have.end(), p) == have.end()) out.push_back(p);
  return out;
}

void check_record(CheckContext& c, const Record& r) {
  std::vector<std::string> needed = r.strings("/requires_tensor_core"), native = r.strings("/native_support");
  for (std::size_t i = 0; i < native.size() && !needed.empty(); ++i) {
    const Record* acc = c.graph().find(native[i]);
    const Record* target = acc ? c.graph().find(acc->str("target")) : nullptr;
    if (!target || target->kind != Kind::Target) continue;
    auto lacks = missing(*target, needed);
    if (lacks.empty()) continue;
    c.report(r, fmt::format("/native_support/{}", i),
             fmt::format("native on {}, whose target {} has no {} tensor-core path (requires_tensor_core: {}); list "
                         "it in emulated_support",
                         native[i], target->id, fmt::join(lacks, "/"), fmt::join(needed, ", ")));
  }
}

constexpr KeptField kReads[] = {{Kind::Format, "/requires_tensor_core"}, {Kind::Format, "/native_support"},
                                {Kind::Accelerator, "/target"}, {Kind::Target, "/tensor_core_precisions"}};

void run(CheckContext& c) {
  for (const Record* r : c.graph().of_kind(Kind::Format)) check_record(c, *r);
}

}  // namespace

Check native_without_tensor_core() { return {.info = &kInfo, .run = run, .reads = kReads}; }

}  // namespace qsel::lint_checks
