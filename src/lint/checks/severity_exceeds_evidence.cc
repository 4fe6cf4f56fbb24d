// QS029: a gotcha rated blocker on the strength of one report.
#include "checks.h"
#include "util.h"

#include <fmt/format.h>

namespace qsel::lint_checks {
namespace {

constexpr RuleInfo kInfo{
    "QS029", "severity-exceeds-evidence", Severity::Error, false,
    "A gotcha is rated blocker without evidence beyond a single report.",
    {R"(A gotcha with `severity: blocker` whose `evidence_grade` is `anecdotal` or missing.)",
     R"(A blocker stops a deployment: qsel ranks any candidate carrying an unconditional blocker last. One report that nobody reproduced, fixed or measured is worth a warning, not a veto — severity follows the evidence. `reproduced` (confirmed by others or by a fix), `documented` (the engine's docs or code state it) and `measured` (a benchmark record prices it) can carry a blocker.)",
     R"(# gotchas/mtp-prefix-caching-accuracy.yaml
id: mtp-prefix-caching-accuracy
severity: blocker
evidence_grade: anecdotal)",
     R"(gotchas/mtp-prefix-caching-accuracy.yaml:3:11: error: severity blocker rests on anecdotal evidence; a blocker needs evidence_grade reproduced, documented or measured [QS029 severity-exceeds-evidence])",
     R"(Rate it `major` until a second report, an upstream fix or a benchmark confirms it, and say in `notes` what the source rated it; or record the stronger evidence and its `evidence_grade`.)"}};

void each(CheckContext& c, const Record& r) {
  if (r.kind != Kind::Gotcha || r.str("severity") != "blocker") return;
  std::string grade = r.str("evidence_grade");
  if (grade == "reproduced" || grade == "documented" || grade == "measured") return;
  c.report(r, "/severity", fmt::format("severity blocker rests on {} evidence; a blocker needs evidence_grade reproduced, "
                                       "documented or measured", grade.empty() ? "unstated" : grade));
}

}  // namespace

Check severity_exceeds_evidence() { return {.info = &kInfo, .each = each}; }

}  // namespace qsel::lint_checks
