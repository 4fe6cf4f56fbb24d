#include <algorithm>

#include <fmt/format.h>

#include "qsel/core/text.h"
#include "qsel/report/lint_report.h"
#include "qsel/lint/registry.h"
#include "qsel/lint/snippet.h"
#include "qsel/report/table.h"

namespace qsel {
namespace {

std::string plural(std::size_t n, const char* word) { return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s"); }

std::string location(const Finding& f, const Style& s) {
  if (!f.mark.known()) return s.bold(printable(f.file));
  return s.bold(fmt::format("{}:{}:{}", printable(f.file), f.mark.line, f.mark.column));
}

std::string finding_severity_text(Severity sev, const Style& s) {
  return sev == Severity::Error ? s.red("error") : s.yellow("warning");
}

// Terminal cells a printable code point takes: 0 for combining marks and
// zero-width characters, 2 for East Asian wide and emoji, else 1.
std::size_t cells(char32_t c) {
  auto in = [c](char32_t lo, char32_t hi) { return c >= lo && c <= hi; };
  if (in(0x0300, 0x036F) || in(0x1AB0, 0x1AFF) || in(0x1DC0, 0x1DFF) || in(0x20D0, 0x20FF) || in(0xFE20, 0xFE2F) ||
      in(0x200B, 0x200F) || in(0xFE00, 0xFE0F) || c == 0x00AD || c == 0x2060 || c == 0xFEFF)
    return 0;
  if (in(0x1100, 0x115F) || in(0x2E80, 0x303E) || in(0x3041, 0x33FF) || in(0x3400, 0x4DBF) || in(0x4E00, 0x9FFF) ||
      in(0xA000, 0xA4CF) || in(0xAC00, 0xD7A3) || in(0xF900, 0xFAFF) || in(0xFE30, 0xFE4F) || in(0xFF00, 0xFF60) ||
      in(0xFFE0, 0xFFE6) || in(0x1F300, 0x1F64F) || in(0x1F900, 0x1F9FF) || in(0x20000, 0x3FFFD))
    return 2;
  return 1;
}

// The snippet as printed (escaped, tabs as four spaces, "…" where it was cut)
// and how many cells precede the finding's character, for the caret.
struct ShownLine {
  std::string text;
  std::size_t caret = 0;
};

ShownLine show(const Snippet& sn) {
  ShownLine out;
  std::size_t width = 0;
  if (sn.cut_before) {
    out.text += "…";
    width = 1;
  }
  std::string_view t = sn.text;
  int index = 1;  // the character's 1-based column, as marks count them
  bool placed = false;
  for (std::size_t i = 0; i < t.size(); ++index) {
    Utf8Char ch = utf8_at(t, i);
    std::size_t len = ch.length;
    std::string_view unit = t.substr(i, len);
    std::string piece = unit == "\t" ? std::string(4, ' ') : printable(unit);
    std::size_t w = piece != unit ? piece.size() : len == 1 ? 1 : cells(ch.code_point);  // escapes are ASCII
    if (index == sn.column) {
      out.caret = width;
      placed = true;
    }
    out.text += piece;
    width += w;
    i += len;
  }
  if (!placed) out.caret = sn.column < 1 ? 0 : width;  // past the end (an end-of-line mark): just after the text
  if (sn.cut_after) out.text += "…";
  return out;
}

// Under the finding's first line: its source line with a caret under the
// column (when it has a position and its file could be read), then where to
// read about the rule.
std::string details(const Finding& f, const Style& s) {
  std::size_t digits = f.mark.known() ? std::to_string(f.mark.line).size() : 1;
  std::string pad(digits + 2, ' ');
  std::string out;
  if (f.mark.known() && f.snippet) {
    // The window narrowed to the terminal: " 12 | " and an ellipsis at either end take their room.
    Snippet sn = *f.snippet;
    std::size_t room = s.width > pad.size() + 4 ? s.width - pad.size() - 4 : 0;
    if (utf8_length(sn.text) > std::max<std::size_t>(room, 20)) {
      Snippet narrow = snippet_of_line(sn.text, sn.column, std::max<std::size_t>(room, 20));
      narrow.cut_before = narrow.cut_before || sn.cut_before;
      narrow.cut_after = narrow.cut_after || sn.cut_after;
      sn = narrow;
    }
    ShownLine line = show(sn);
    out += pad + s.cyan("|") + "\n";
    out += " " + s.cyan(fmt::format("{} |", f.mark.line)) + (line.text.empty() ? "" : " " + line.text) + "\n";
    std::string caret = f.severity == Severity::Error ? s.red("^") : s.yellow("^");
    out += pad + s.cyan("|") + " " + std::string(line.caret, ' ') + caret + "\n";
  }
  return out + pad + s.cyan("=") + " see: qsel explain " + f.code + "\n\n";
}

}  // namespace

std::string lint_summary_line(const LintReport& r) {
  std::string line = fmt::format("{}, {} in {} ({})", plural(r.errors(), "error"), plural(r.warnings(), "warning"),
                                 plural(r.records, "record"), plural(r.files, "file"));
  if (r.baselined > 0) line += fmt::format("; {} baselined", r.baselined);
  return line;
}

std::string render_lint_statistics(const LintReport& r, const Style& s) {
  std::string out;
  for (const auto& c : r.by_code())
    out += fmt::format("{:>5}  {}  {}{}\n", c.count, s.bold(c.code), printable(c.name),
                       c.fixable > 0 ? fmt::format("  [*] {} fixable", c.fixable) : "");
  return out + lint_summary_line(r) + "\n";
}

std::string render_lint_text(const LintReport& r, const Style& s) {
  std::string out;
  for (const Finding& f : r.findings)
    out += wrap(fmt::format("{} {}", printable(f.message), s.dim(fmt::format("[{} {}]", f.code, f.name))), s.width,
                fmt::format("{}: {}: ", location(f, s), finding_severity_text(f.severity, s)), "    ") +
           details(f, s);
  return out + lint_summary_line(r) + "\n";
}

std::string render_lint_concise(const LintReport& r, const Style& s) {
  std::string out;
  for (const Finding& f : r.findings)
    // One line per finding whatever the width, as ruff's concise: editors and grep read it line by line.
    out += fmt::format("{}: {} {} {}{}\n", location(f, s), s.bold(f.code), finding_severity_text(f.severity, s), printable(f.message),
                       f.fix ? s.dim(" [*]") : "");
  return out + lint_summary_line(r) + "\n";
}

std::string render_lint_fixes(const std::vector<Finding>& fixes, bool applied, const Style& s) {
  std::size_t n = static_cast<std::size_t>(std::count_if(fixes.begin(), fixes.end(), [](const Finding& f) { return f.fix.has_value(); }));
  if (n == 0) return "";
  std::string out = fmt::format("\n{}\n", s.bold(fmt::format("{} {}:", applied ? "Fixed" : "Fixable with --fix", plural(n, "finding"))));
  for (const Finding& f : fixes) {
    if (!f.fix) continue;
    out += fmt::format("  {}: {} {} → {}\n", location(f, s), f.code, quote_value(printable(f.fix->old_text)),
                       quote_value(printable(f.fix->new_text)));
  }
  return fit_lines(out, s.width);
}

std::string render_rules_table(const std::vector<RuleInfo>& rules, const Style& s) {
  Table t({"code", "name", "severity", "fix", "summary"});
  for (const RuleInfo& r : rules)
    t.add({s.bold(std::string(r.code)), std::string(r.name), severity_name(r.severity), r.fixable ? "yes" : "",
           std::string(r.summary)});
  t.wrap_to(s.width, 0);
  return t.render();
}

}  // namespace qsel
