// Azure Pipelines logging commands, as ruff's azure emitter writes them
// (crates/ruff_linter/src/message/azure.rs): one `##vso[task.logissue …]message` per
// finding. Property values are escaped the way the agent unescapes them
// (Agent.Sdk CommandStringConvertor): ';' %3B, CR %0D, LF %0A, ']' %5D, '%' %AZP25;
// the message, after the first ']', only '%', CR and LF (as the task library's
// escapedata), so it reads as written in the raw log.
#include <fmt/format.h>

#include "qsel/core/text.h"
#include "qsel/report/lint_report.h"

namespace qsel {

std::string azure_escape_data(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '%': out += "%AZP25"; break;
      case '\r': out += "%0D"; break;
      case '\n': out += "%0A"; break;
      default: out += c;
    }
  }
  return out;
}

std::string azure_escape(std::string_view text) {
  std::string out;
  for (char c : azure_escape_data(text)) {
    switch (c) {
      case ';': out += "%3B"; break;
      case ']': out += "%5D"; break;
      default: out += c;
    }
  }
  return out;
}

std::string render_lint_azure(const LintReport& report, const std::filesystem::path& root) {
  std::string out;
  for (const Finding& f : report.findings) {
    std::string props = fmt::format("type={};sourcepath={};", f.severity == Severity::Error ? "error" : "warning",
                                    azure_escape(printable(root_relative(f.file, root))));
    if (f.mark.known()) props += fmt::format("linenumber={};columnnumber={};", f.mark.line, f.mark.column);
    props += fmt::format("code={};", azure_escape(f.code));
    out += fmt::format("##vso[task.logissue {}]{}\n", props, azure_escape_data(printable(f.message)));
  }
  return out;
}

}  // namespace qsel
