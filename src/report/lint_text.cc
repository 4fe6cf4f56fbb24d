#include <fmt/format.h>

#include "qsel/core/text.h"
#include "qsel/report/lint_report.h"
#include "qsel/lint/registry.h"
#include "qsel/report/table.h"

namespace qsel {
namespace {

std::string plural(std::size_t n, const char* word) { return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s"); }

std::string location(const Finding& f, const Style& s) {
  if (!f.mark.known()) return s.bold(printable(f.file));
  return s.bold(fmt::format("{}:{}:{}", printable(f.file), f.mark.line, f.mark.column));
}

std::string severity_text(Severity sev, const Style& s) {
  return sev == Severity::Error ? s.red("error") : s.yellow("warning");
}

}  // namespace

std::string lint_summary_line(const LintReport& r) {
  std::string line = fmt::format("{}, {} in {} ({})", plural(r.errors(), "error"), plural(r.warnings(), "warning"),
                                 plural(r.records, "record"), plural(r.files, "file"));
  if (r.baselined > 0) line += fmt::format("; {} baselined", r.baselined);
  return line;
}

std::string render_lint_text(const LintReport& r, const Style& s) {
  std::string out;
  for (const Finding& f : r.findings)
    out += fmt::format("{}: {}: {} {}\n", location(f, s), severity_text(f.severity, s), printable(f.message),
                       s.dim(fmt::format("[{} {}]", f.code, f.name)));
  return out + lint_summary_line(r) + "\n";
}

std::string render_rules_table(const std::vector<RuleInfo>& rules, const Style& s) {
  Table t({"code", "name", "severity", "fix", "summary"});
  for (const RuleInfo& r : rules)
    t.add({s.bold(std::string(r.code)), std::string(r.name), severity_name(r.severity), r.fixable ? "yes" : "",
           std::string(r.summary)});
  return t.render();
}

}  // namespace qsel
