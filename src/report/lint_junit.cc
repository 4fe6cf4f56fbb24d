// JUnit XML in the shape ruff emits (crates/ruff_linter/src/message/junit.rs, via
// quick_junit): one <testsuite> per file, one failed <testcase> per finding; a
// single passing testcase when there is nothing to report.
#include <fmt/format.h>

#include <map>

#include "qsel/core/text.h"
#include "qsel/report/lint_report.h"

namespace qsel {
namespace fs = std::filesystem;

std::string xml_escape(std::string_view text) {
  std::string out;
  for (char c : printable(text)) {  // control bytes become \xNN first: XML 1.0 cannot carry them
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      case '\t': out += "&#9;"; break;  // kept a tab inside attribute values
      default: out += c;
    }
  }
  return out;
}

std::string render_lint_junit(const LintReport& report, const fs::path& root) {
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  std::size_t n = report.findings.size();
  out += fmt::format("<testsuites name=\"qsel\" tests=\"{}\" failures=\"{}\" errors=\"0\">\n", n == 0 ? 1 : n, n);
  if (n == 0) {
    out += "    <testsuite name=\"qsel\" tests=\"1\" disabled=\"0\" errors=\"0\" failures=\"0\" package=\"qsel\">\n"
           "        <testcase name=\"No errors found\" classname=\"qsel\">\n"
           "        </testcase>\n"
           "    </testsuite>\n";
    return out + "</testsuites>\n";
  }
  // Grouped by file in the report's order (sorted by file already).
  std::vector<std::pair<std::string, std::vector<const Finding*>>> files;
  for (const Finding& f : report.findings) {
    std::string relative = root_relative(f.file, root);
    if (files.empty() || files.back().first != relative) files.push_back({relative, {}});
    files.back().second.push_back(&f);
  }
  for (const auto& [file, list] : files) {
    fs::path p(file);
    std::string classname = (p.parent_path() / p.stem()).generic_string();
    out += fmt::format("    <testsuite name=\"{}\" tests=\"{}\" disabled=\"0\" errors=\"0\" failures=\"{}\" package=\"qsel\">\n",
                       xml_escape(file), list.size(), list.size());
    for (const Finding* f : list) {
      int line = f->mark.known() ? f->mark.line : 0, col = f->mark.known() ? f->mark.column : 0;
      out += fmt::format("        <testcase name=\"qsel.{}\" classname=\"{}\" line=\"{}\" column=\"{}\">\n", xml_escape(f->code),
                         xml_escape(classname), line, col);
      out += fmt::format("            <failure message=\"{}\" type=\"{}\">line {}, col {}, {}</failure>\n", xml_escape(f->message),
                         severity_name(f->severity), line, col, xml_escape(f->message));
      out += "        </testcase>\n";
    }
    out += "    </testsuite>\n";
  }
  return out + "</testsuites>\n";
}

}  // namespace qsel
