// Pylint's parseable line format, as ruff's pylint emitter writes it
// (crates/ruff_linter/src/message/pylint.rs): `path:line: [CODE] message`.
#include <fmt/format.h>

#include "qsel/core/text.h"
#include "qsel/report/lint_report.h"

namespace qsel {

std::string render_lint_pylint(const LintReport& report, const std::filesystem::path& root) {
  std::string out;
  for (const Finding& f : report.findings)  // a finding without a line is on line 1, as ruff's fallback
    out += fmt::format("{}:{}: [{}] {}\n", printable(root_relative(f.file, root)), f.mark.known() ? f.mark.line : 1, f.code,
                       printable(f.message));
  return out;
}

}  // namespace qsel
