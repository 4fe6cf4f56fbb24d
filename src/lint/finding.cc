#include "qsel/lint/finding.h"

#include <algorithm>
#include <tuple>

namespace qsel {

const char* severity_name(Severity s) { return s == Severity::Error ? "error" : "warning"; }

void sort_findings(Findings& findings) {
  std::stable_sort(findings.begin(), findings.end(), [](const Finding& a, const Finding& b) {
    return std::tie(a.file, a.mark.line, a.mark.column, a.code) < std::tie(b.file, b.mark.line, b.mark.column, b.code);
  });
}

}  // namespace qsel
