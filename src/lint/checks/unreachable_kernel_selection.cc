// QS023: a kernel_selection entry names a kernel that can never run where the entry applies.
#include <fmt/format.h>

#include "checks.h"
#include "qsel/graph/selector.h"
#include "qsel/core/json_number.h"
#include "util.h"

namespace qsel::lint_checks {
namespace {

constexpr RuleInfo kInfo{
    "QS023", "unreachable-kernel-selection", Severity::Error, false,
    "An engine's kernel_selection entry selects a kernel whose runs_on matches none of the targets the entry applies to.",
    {R"(An entry of an engine's `kernel_selection` whose `when` selector and whose kernel's `runs_on` selector have no target in common: no target record satisfies both. Selectors are evaluated on the target records' `vendor`, `platform`, `family` and `compute_capability` and their ids. Entries whose `when` or whose kernel's `runs_on` matches no target at all are left to QS024.)",
     R"(`kernel_selection` is what the advisor reads to name the kernel that will actually run (Rule 2: verify which kernel is running). An entry that can never fire is either dead — and the kernel the engine really picks is missing — or a wrong target range that makes the advisor name a kernel that cannot load on the part (Machete is sm90-only; sm120 is a different target from sm100).)",
     R"(# engines/vllm.yaml
kernel_selection:
- kernel: machete        # kernels/machete.yaml: runs_on: {targets: [sm90]}
  formats: [awq]
  when: {targets: [sm120]})",
     R"(engines/vllm.yaml:3:11: error: kernel_selection[0] selects machete, which runs on sm90, but the entry applies to sm120; no target is in both [QS023 unreachable-kernel-selection])",
     R"(Fix the entry's `when` to the targets where the engine picks this kernel, or the kernel's `runs_on` if that is what is wrong, or select the kernel that really runs there.)"}};

std::string targets_text(const std::vector<const Record*>& targets) {
  std::vector<std::string> ids;
  for (std::size_t i = 0; i < targets.size() && i < 4; ++i) ids.push_back(targets[i]->id);
  return fmt::format("{}{}", fmt::join(ids, ", "), targets.size() > 4 ? fmt::format(" and {} more", targets.size() - 4) : "");
}

bool overlap(const std::vector<const Record*>& a, const std::vector<const Record*>& b) {
  for (const Record* x : a)
    if (std::find(b.begin(), b.end(), x) != b.end()) return true;
  return false;
}

void check_entry(CheckContext& c, const Record& engine, std::size_t i, const json& entry) {
  const Record* kernel = c.graph().find(entry.value("kernel", ""));
  if (!kernel || kernel->kind != Kind::Kernel) return;
  auto where = matching_targets(object_field(entry, "when"), c.graph());
  auto runs = matching_targets(field(*kernel, "runs_on"), c.graph());
  if (where.empty() || runs.empty() || overlap(where, runs)) return;
  c.report(engine, fmt::format("/kernel_selection/{}/kernel", i),
           fmt::format("kernel_selection[{}] selects {}, which runs on {}, but the entry applies to {}; no target is in both",
                       i, kernel->id, targets_text(runs), targets_text(where)));
}

// selector_matches reads every field of a target.
constexpr KeptField kReads[] = {{Kind::Engine, "/kernel_selection"}, {Kind::Kernel, "/runs_on"}, {Kind::Target, ""}};

void run(CheckContext& c) {
  for (const Record* e : c.graph().of_kind(Kind::Engine)) {
    const json& list = field(*e, "kernel_selection");
    for (std::size_t i = 0; list.is_array() && i < list.size(); ++i) check_entry(c, *e, i, list[i]);
  }
}

}  // namespace

Check unreachable_kernel_selection() { return {.info = &kInfo, .run = run, .reads = kReads}; }

}  // namespace qsel::lint_checks
