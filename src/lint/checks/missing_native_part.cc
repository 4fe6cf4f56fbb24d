// QS033: a part whose target computes every precision a native-compute format
// needs is missing from the format's native_support, and no not_native entry says why.
#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "checks.h"
#include "util.h"

namespace qsel::lint_checks {
namespace {

constexpr RuleInfo kInfo{
    "QS033", "missing-native-part", Severity::Error, false,
    "A part whose target has the format's tensor-core precisions is missing from its native list, with no reason given.",
    {R"(A format with `hardware_path: native-compute` and `requires_tensor_core` (and, where it says `requires_block_scaled_mma: true`, a target with `block_scaled_mma`), and an accelerator whose target record has every one of those precisions in `tensor_core_precisions`, where the accelerator is not in the format's `native_support` and no `not_native` entry names the part or its target with a reason and a source. One finding per target, naming its missing parts; it points at `native_support` (or at `requires_tensor_core` when the format has no native list).)",
     R"(The target records are where the corpus states what silicon computes, each with its own source; a native list that leaves out a part of such a target is a second, silent opinion. That is how the census kept FP8 E4M3 off the RTX 4090 (sm89, the same FP8 tensor cores as the L40S listed beside it) and MI300X (gfx942, FP8 in its MFMA), and block-scaled FP8 off Hopper, against the vendors' and the engines' own sources. A part that really does not run the format natively (no kernel for the recipe, a scale type the MMA does not take) is fine — say so in `not_native`, with the source.)",
     R"(# formats/fp8-e4m3.yaml
id: fp8-e4m3
hardware_path: native-compute
requires_tensor_core: [fp8]
native_support: [l40s]      # rtx-4090 has the same target (sm89))",
     R"(formats/fp8-e4m3.yaml:5:17: error: target sm89 has fp8 tensor cores, but rtx-4090 is not in native_support and no not_native entry says why [QS033 missing-native-part])",
     R"(Add the parts to `native_support` — the target record is the source that they compute the precision. Where a part or a whole target does not run the format natively for another reason, add a `not_native` entry: `{parts: [..]}` or `{targets: [..]}`, `reason`, and a `source` (engine code at a commit, a vendor ISA or datasheet). If a lower source (the census) disagrees, keep it as a `contested_by` entry.)"}};

bool has_all(const Record& target, const std::vector<std::string>& needed) {
  std::vector<std::string> have = target.strings("/tensor_core_precisions");
  return std::all_of(needed.begin(), needed.end(), [&](const std::string& p) { return std::find(have.begin(), have.end(), p) != have.end(); });
}

// Parts and targets a not_native entry excuses.
bool excused(const Record& f, const std::string& part, const std::string& target) {
  const json& list = field(f, "not_native");
  if (!list.is_array()) return false;
  for (const json& e : list) {
    for (const char* key : {"parts", "targets"}) {
      if (!e.contains(key) || !e[key].is_array()) continue;
      const std::string& want = std::string(key) == "parts" ? part : target;
      for (const json& id : e[key])
        if (id.is_string() && id.get<std::string>() == want) return true;
    }
  }
  return false;
}

void check_format(CheckContext& c, const Record& f) {
  std::vector<std::string> needed = f.strings("/requires_tensor_core");
  if (needed.empty() || f.str("hardware_path") != "native-compute") return;
  bool block_scaled = field(f, "requires_block_scaled_mma").is_boolean() && field(f, "requires_block_scaled_mma").get<bool>();
  std::vector<std::string> native = f.strings("/native_support");
  std::map<std::string, std::vector<std::string>> missing;  // target -> parts, in id order
  for (const Record* a : c.graph().of_kind(Kind::Accelerator)) {
    if (std::find(native.begin(), native.end(), a->id) != native.end()) continue;
    const Record* t = c.graph().find(a->str("target"));
    if (!t || t->kind != Kind::Target || !has_all(*t, needed)) continue;
    if (block_scaled && !(field(*t, "block_scaled_mma").is_boolean() && field(*t, "block_scaled_mma").get<bool>())) continue;
    if (excused(f, a->id, t->id)) continue;
    missing[t->id].push_back(a->id);
  }
  std::string at = field(f, "native_support").is_array() ? "/native_support" : "/requires_tensor_core";
  for (auto& [target, parts] : missing) {
    std::sort(parts.begin(), parts.end());
    std::string names = fmt::format("{}", fmt::join(parts.begin(), parts.begin() + std::min<std::size_t>(parts.size(), 8), ", "));
    if (parts.size() > 8) names += fmt::format(" and {} more", parts.size() - 8);
    c.report(f, at,
             fmt::format("target {} has {} tensor cores{}, but {} {} not in native_support and no not_native entry says why", target,
                         fmt::join(needed, "/"), block_scaled ? " and block-scaled MMA" : "", names, parts.size() == 1 ? "is" : "are"));
  }
}

constexpr KeptField kReads[] = {{Kind::Format, "/requires_tensor_core"}, {Kind::Format, "/hardware_path"},
                                {Kind::Format, "/requires_block_scaled_mma"}, {Kind::Format, "/native_support"},
                                {Kind::Format, "/not_native"}, {Kind::Accelerator, "/target"},
                                {Kind::Target, "/tensor_core_precisions"}, {Kind::Target, "/block_scaled_mma"}};

void run(CheckContext& c) {
  for (const Record* f : c.graph().of_kind(Kind::Format)) check_format(c, *f);
}

}  // namespace

Check missing_native_part() { return {.info = &kInfo, .run = run, .reads = kReads}; }

}  // namespace qsel::lint_checks
