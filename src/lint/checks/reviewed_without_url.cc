// QS027: a reviewed record cites no source a reader can open.
#include "checks.h"
#include "qsel/core/json_number.h"
#include "util.h"

namespace qsel::lint_checks {
namespace {

constexpr RuleInfo kInfo{
    "QS027", "reviewed-without-url", Severity::Warning, false,
    "A record marked status: reviewed has no source with a url.",
    {R"(A record with `status: reviewed` none of whose `sources` has a `url`.)",
     R"("Reviewed" tells a reader the facts were checked against something. Seed-document sections are citations too, but a reviewer needs at least one primary source to open — a datasheet, a project's docs or code at a commit — to re-check the record when the world moves.)",
     R"(# formats/awq.yaml
id: awq
status: reviewed
sources:
- title: doc 04 — weight-only-4bit vs W4A4
  section: §1.1)",
     R"(formats/awq.yaml:3:9: warning: status is reviewed, but no source has a url; cite one primary source a reader can open [QS027 reviewed-without-url])",
     R"(Add the primary source you checked, with its `url` (and `version` or commit where it changes over time), or set `status: draft` until someone does.)"}};

bool has_url(const Record& r) {
  for (const json& s : array_field(r.data, "sources"))
    if (s.contains("url")) return true;
  return false;
}

void each(CheckContext& c, const Record& r) {
  if (r.str("status") == "reviewed" && !has_url(r))
    c.report(r, "/status", "status is reviewed, but no source has a url; cite one primary source a reader can open");
}

}  // namespace

Check reviewed_without_url() { return {.info = &kInfo, .each = each}; }

}  // namespace qsel::lint_checks
