#include "qsel/report/lint_report.h"

namespace qsel {

nlohmann::ordered_json lint_json(const LintReport& r) {
  nlohmann::ordered_json findings = nlohmann::ordered_json::array();
  for (const Finding& f : r.findings)
    findings.push_back({{"code", f.code}, {"name", f.name}, {"severity", severity_name(f.severity)}, {"file", f.file},
                        {"line", f.mark.line}, {"column", f.mark.column}, {"record", f.record}, {"message", f.message}});
  nlohmann::ordered_json summary = {{"errors", r.errors()}, {"warnings", r.warnings()}, {"files", r.files},
                                    {"records", r.records}};
  if (r.baselined > 0) summary["baselined"] = r.baselined;
  if (r.fixed > 0) summary["fixed"] = r.fixed;
  return {{"findings", findings}, {"summary", summary}};
}

}  // namespace qsel
