// QS049: a unified-memory part is sized from its whole memory, with no budget,
// no rule and no reason; or a recorded budget figure says nowhere where it comes from.
#include <algorithm>
#include <string>

#include <fmt/format.h>

#include "checks.h"
#include "qsel/core/text.h"
#include "util.h"

namespace qsel::lint_checks {
namespace {

constexpr RuleInfo kInfo{
    "QS049", "unified-memory-budget", Severity::Warning, false,
    "A unified-memory part has no budget, no rule and no reason, or a budget figure with no evidence.",
    {R"(An accelerator whose `memory_type` says `unified` (Apple M-series, Jetson, DGX Spark, Strix Halo, MI300A) with none of `gpu_working_set_mib`, `gpu_free_gb` or `gpu_visible_gb`, whose target has no `gpu_working_set` (Metal) or `gpu_free_share` (Jetson) rule, and which has no `gpu_budget_note` saying why none is recorded. Also: one of those three figures with no `gpu_budget_evidence` entry for it (its field, basis, grade and source).)",
     R"(On unified memory the OS, its services and the carveouts hold part of the pool, so the label overstates what a model gets: Jetson AGX Orin 64GB had 51.6 GiB free on a running JetPack 6 image, a 128 GB Mac under macOS 26 lets the GPU wire 107.52 GiB. A part with no budget is sized from its whole memory; that is allowed only when the record says why nothing better is known. A figure without its evidence cannot be graded or re-read when the OS changes the share.)",
     R"(# accelerators/jetson-orin-nx-16gb.yaml
id: jetson-orin-nx-16gb
target: sm87            # sm87 has no gpu_working_set rule
memory_gb: 16
memory_type: unified (CPU+GPU) LPDDR5)",
     R"(accelerators/jetson-orin-nx-16gb.yaml:5:14: warning: unified-memory part with no budget (gpu_working_set_mib, gpu_free_gb or gpu_visible_gb), no working-set or free-share rule on its target sm87 and no gpu_budget_note: it is sized from its whole 16 GiB [QS049 unified-memory-budget])",
     R"(Record the figure from a published log of this part (CUDA's total or free memory, llama.cpp's "MiB free", Metal's recommendedMaxWorkingSetSize) or of a part with the same memory under the same OS, with a `gpu_budget_evidence` entry (field, basis, grade, os, source with url, date and quote). Where nothing can be found, say so in `gpu_budget_note`.)"}};

constexpr const char* kFields[] = {"gpu_working_set_mib", "gpu_free_gb", "gpu_visible_gb"};

bool positive(const json& v) { return v.is_number() && v.get<double>() > 0; }

bool has_evidence(const Record& a, const std::string& name) {
  const json& list = field(a, "gpu_budget_evidence");
  if (!list.is_array()) return false;
  return std::any_of(list.begin(), list.end(), [&](const json& e) { return e.is_object() && e.value("field", "") == name; });
}

void check(CheckContext& c, const Record& a) {
  if (to_lower(a.str("memory_type")).find("unified") == std::string::npos) return;
  bool any = false;
  for (const char* name : kFields) {
    if (!positive(field(a, name))) continue;
    any = true;
    if (!has_evidence(a, name))
      c.report(a, std::string("/") + name,
               fmt::format("{} is recorded without a gpu_budget_evidence entry: say where it comes from (basis, grade, source)", name));
  }
  if (any) return;
  const Record* t = c.graph().find(a.str("target"));
  for (const char* rule : {"gpu_working_set", "gpu_free_share"}) {
    const json& rules = t ? field(*t, rule) : json();
    if (rules.is_array() && !rules.empty()) return;
  }
  const json& note = field(a, "gpu_budget_note");
  if (note.is_string() && !note.get<std::string>().empty()) return;
  const json& mem = field(a, "memory_gb");
  c.report(a, "/memory_type",
           fmt::format("unified-memory part with no budget (gpu_working_set_mib, gpu_free_gb or gpu_visible_gb), no working-set or free-share rule on "
                       "its target {} and no gpu_budget_note: it is sized from its whole {}",
                       a.str("target").empty() ? "(none)" : a.str("target"),
                       mem.is_number() ? fmt::format("{:g} {}", mem.get<double>(), a.str("memory_unit").empty() ? "GiB" : a.str("memory_unit"))
                                       : std::string("memory")));
}

constexpr KeptField kReads[] = {{Kind::Accelerator, "/memory_type"},         {Kind::Accelerator, "/memory_gb"},
                                {Kind::Accelerator, "/memory_unit"},         {Kind::Accelerator, "/target"},
                                {Kind::Accelerator, "/gpu_working_set_mib"}, {Kind::Accelerator, "/gpu_free_gb"},
                                {Kind::Accelerator, "/gpu_visible_gb"},      {Kind::Accelerator, "/gpu_budget_note"},
                                {Kind::Accelerator, "/gpu_budget_evidence"}, {Kind::Target, "/gpu_working_set"},
                                {Kind::Target, "/gpu_free_share"}};

void run(CheckContext& c) {
  for (const Record* a : c.graph().of_kind(Kind::Accelerator)) check(c, *a);
}

}  // namespace

Check unified_memory_budget() { return {.info = &kInfo, .run = run, .reads = kReads}; }

}  // namespace qsel::lint_checks
