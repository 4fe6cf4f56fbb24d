// GitHub Actions workflow commands. A record value printed raw could end the
// command early or start a new one, so data and property values are escaped
// the way the Actions runner unescapes them.
#include <algorithm>

#include <fmt/format.h>

#include "qsel/core/text.h"
#include "qsel/report/lint_report.h"

namespace qsel {
namespace fs = std::filesystem;

std::string github_escape_data(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '%') out += "%25";
    else if (c == '\r') out += "%0D";
    else if (c == '\n') out += "%0A";
    else out += c;
  }
  return out;
}

std::string github_escape_property(std::string_view text) {
  std::string out;
  for (char c : github_escape_data(text)) {
    if (c == ':') out += "%3A";
    else if (c == ',') out += "%2C";
    else out += c;
  }
  return out;
}

fs::path repository_root(const fs::path& start) {
  std::error_code ec;
  fs::path dir = fs::absolute(start).lexically_normal();
  for (fs::path d = dir;; d = d.parent_path()) {
    if (fs::exists(d / ".git", ec)) return d;
    if (!d.has_relative_path()) return dir;
  }
}

fs::path report_root(const std::vector<std::string>& paths, const fs::path& cwd) {
  fs::path here = repository_root(cwd);
  auto inside = [](const fs::path& p, const fs::path& dir) {
    fs::path rel = fs::absolute(p).lexically_normal().lexically_relative(dir);
    return !rel.empty() && *rel.begin() != "..";
  };
  if (paths.empty() || std::all_of(paths.begin(), paths.end(), [&](const std::string& p) { return inside(p, here); })) return here;
  std::error_code ec;
  fs::path first = fs::absolute(paths.front()).lexically_normal();
  fs::path start = fs::is_directory(first, ec) ? first : first.parent_path();
  return repository_root(start);  // the checkout holding it, else the path itself
}

std::string root_relative(const std::string& file, const fs::path& root) {
  fs::path rel = fs::absolute(file).lexically_normal().lexically_relative(fs::absolute(root).lexically_normal());
  return rel.empty() ? fs::path(file).generic_string() : rel.generic_string();
}

std::string render_lint_github(const LintReport& report, const fs::path& root) {
  std::string out;
  for (const Finding& f : report.findings) {
    std::string props = "file=" + github_escape_property(printable(root_relative(f.file, root)));
    if (f.mark.known()) props += fmt::format(",line={},col={}", f.mark.line, f.mark.column);
    props += ",title=" + github_escape_property(fmt::format("{} {}", f.code, f.name));
    out += fmt::format("::{} {}::{}\n", f.severity == Severity::Error ? "error" : "warning", props,
                       github_escape_data(printable(f.message)));
  }
  return out + github_escape_data(lint_summary_line(report)) + "\n";
}

}  // namespace qsel
