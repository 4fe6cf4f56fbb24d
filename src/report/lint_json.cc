// `qsel lint --format json`: the findings and the summary, versioned. Unknown
// positions are null; each finding says whether --fix can repair it and where
// its code's page is.
#include "qsel/lint/registry.h"
#include "qsel/report/rule_doc.h"
#include "qsel/report/json_contract.h"
#include "qsel/report/lint_report.h"

namespace qsel {

using ojson = nlohmann::ordered_json;
namespace {

ojson position(int v, bool known) { return known && v > 0 ? ojson(v) : ojson(); }

}  // namespace

ojson lint_json(const LintReport& r) {
  ojson findings = ojson::array();
  for (const Finding& f : r.findings)
    findings.push_back({{"code", f.code}, {"name", f.name}, {"severity", severity_name(f.severity)}, {"file", f.file},
                        {"line", position(f.mark.line, f.mark.known())}, {"column", position(f.mark.column, f.mark.known())},
                        {"record", f.record}, {"message", f.message}, {"fixable", f.fix.has_value()},
                        {"url", lint_doc_url(f.code)}});
  ojson summary = {{"errors", r.errors()}, {"warnings", r.warnings()}, {"files", r.files}, {"records", r.records}};
  if (r.baselined > 0) summary["baselined"] = r.baselined;
  if (r.fixed > 0) summary["fixed"] = r.fixed;
  return {{"schema_version", kOutputSchemaVersion}, {"findings", findings}, {"summary", summary}};
}

ojson rules_json(const std::vector<RuleInfo>& rules) {
  ojson list = ojson::array();
  for (const RuleInfo& r : rules) {
    ojson j = rule_doc_json(r);
    j["url"] = lint_doc_url(r.code);
    list.push_back(j);
  }
  return {{"schema_version", kOutputSchemaVersion}, {"rules", list}};
}

}  // namespace qsel
