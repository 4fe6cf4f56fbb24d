// GitLab Code Quality: a JSON array of issues with the properties GitLab reads
// (doc/ci/testing/code_quality.md, "Implement a custom tool"): description,
// check_name, fingerprint, severity, location.path, location.lines.begin.
#include <map>

#include "qsel/core/text.h"
#include "qsel/report/lint_report.h"

namespace qsel {
namespace fs = std::filesystem;

nlohmann::ordered_json lint_gitlab(const LintReport& report, const fs::path& root) {
  auto issues = nlohmann::ordered_json::array();
  std::map<std::string, std::size_t> seen;
  for (const Finding& f : report.findings) {
    std::string relative = root_relative(f.file, root);
    std::string fingerprint = finding_fingerprint(f, relative, seen[finding_fingerprint(f, relative, 0)]++);
    issues.push_back({
        // GitLab's widget shows the description, not check_name: the code leads it (as ruff's).
        {"description", printable(f.code + " " + f.name + ": " + f.message)},
        {"check_name", f.code},
        {"fingerprint", fingerprint},
        {"severity", f.severity == Severity::Error ? "major" : "minor"},
        // A finding about a whole file (no line) points at its first line: GitLab requires one.
        {"location", {{"path", printable(relative)}, {"lines", {{"begin", f.mark.known() ? f.mark.line : 1}}}}},
    });
  }
  return issues;
}

}  // namespace qsel
