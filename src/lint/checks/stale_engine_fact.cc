// QS038: an engine fact read at a commit older than --stale-after.
#include <fmt/format.h>

#include "checks.h"
#include "qsel/core/citation.h"
#include "util.h"

namespace qsel::lint_checks {
namespace {

constexpr RuleInfo kInfo{
    "QS038", "stale-engine-fact", Severity::Warning, false,
    "An engine fact was read at a commit older than --stale-after (off unless asked for).",
    {R"(With `qsel lint --stale-after N` (months; also `Nd`, `Ny`, or `stale-after:` in .qsel.yaml): a source in an engine, kernel or matrix record whose `date` is more than N months before today (SOURCE_DATE_EPOCH when set). Without the option the rule reports nothing. Sources with no date are QS034's business.)",
     R"(Engines change their kernel choices every release: a Marlin-versus-Machete order or a support-matrix cell read a year ago may be false today. The date each fact was read at lets curators see which ones to re-read first, instead of re-reading everything or nothing. The project's own CI runs it at 12 months, as a warning: it lists work, it does not fail a build.)",
     R"(# kernels/machete.yaml (qsel lint --stale-after 12 data/, on 2026-12-01)
sources:
- title: vLLM machete.py
  url: https://github.com/vllm-project/vllm/blob/0123456789abcdef0123456789abcdef01234567/vllm/model_executor/layers/quantization/kernels/mixed_precision/machete.py
  date: 2025-03-02)",
     R"(kernels/machete.yaml:5:9: warning: engine fact read at 0123456 on 2025-03-02, 21 months before 2026-12-01 (--stale-after 12): re-read it at a current commit [QS038 stale-engine-fact])",
     R"(Open the file at a current commit; if the quote still holds, move `url`/`commit` and `date` to it; if not, change the record to what the code says now.)"}};

void each(CheckContext& c, const Record& r) {
  const CheckOptions& o = c.options();
  if (o.stale_after_months <= 0) return;
  if (!holds_engine_facts(r.kind)) return;
  for_each_source(r.data, [&](const std::string& pointer, const json& source) {
    Citation cite = read_citation(source);
    int day = date_days(cite.date);
    if (day < 0) return;
    int months = (o.today - day) * 12 / 365;  // whole months, by the mean Gregorian month rounded down
    if (months <= o.stale_after_months) return;
    c.report(r, pointer + "/date",
             fmt::format("engine fact read at {} on {}, {} months before {} (--stale-after {}): re-read it at a current commit",
                         cite.commit.empty() ? std::string("an unnamed commit") : cite.commit.substr(0, 7), cite.date, months,
                         days_to_date(o.today), o.stale_after_months));
  });
}

}  // namespace

Check stale_engine_fact() { return {.info = &kInfo, .each = each}; }

}  // namespace qsel::lint_checks
