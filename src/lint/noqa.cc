#include "qsel/lint/noqa.h"

#include <algorithm>
#include <cctype>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "qsel/core/errors.h"
#include "qsel/core/text.h"
#include "qsel/core/text_file.h"
#include "qsel/lint/registry.h"
#include "qsel/loader/yaml_reader.h"

namespace qsel {
namespace {

bool blank(char c) { return c == ' ' || c == '\t'; }

int leading_spaces(std::string_view line) {
  int n = 0;
  while (static_cast<std::size_t>(n) < line.size() && line[static_cast<std::size_t>(n)] == ' ') ++n;
  return n;
}

bool is_blank_line(std::string_view line) {
  return std::all_of(line.begin(), line.end(), [](char c) { return blank(c) || c == '\r'; });
}

// 1-based character column of byte `offset` on the line starting at `line_start`.
int char_column(std::string_view text, std::size_t line_start, std::size_t offset) {
  return static_cast<int>(utf8_length(text.substr(line_start, offset - line_start))) + 1;
}

// `|` or `>` at `k` opens a block scalar: only indentation/chomping indicators may
// follow it, then blanks, then the end of the line or a comment.
bool opens_block_scalar(std::string_view line, std::size_t k) {
  std::size_t j = k + 1;
  while (j < line.size() && (line[j] == '-' || line[j] == '+' || (line[j] >= '1' && line[j] <= '9'))) ++j;
  if (j < line.size() && !blank(line[j])) return false;
  while (j < line.size() && blank(line[j])) ++j;
  return j == line.size() || line[j] == '#';
}

}  // namespace

std::vector<YamlComment> yaml_comments(std::string_view text) {
  std::vector<YamlComment> out;
  enum class Quote { None, Double, Single } quote = Quote::None;
  bool block_pending = false;  // the last line opened a block scalar; its content indentation is not known yet
  int block_parent = 0;        // indentation of the line that opened it
  int block_indent = -1;       // the block's content indentation, while inside one
  int line_no = 0;
  for (std::size_t start = 0; start <= text.size();) {
    std::size_t eol = text.find('\n', start);
    if (eol == std::string_view::npos) eol = text.size();
    std::string_view line = text.substr(start, eol - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    ++line_no;
    auto next = [&] { start = eol + 1; };
    if (quote == Quote::None && (block_pending || block_indent >= 0)) {
      int indent = leading_spaces(line);
      if (is_blank_line(line)) { next(); continue; }  // blank lines belong to the block
      if (block_pending) {
        block_pending = false;
        if (indent > block_parent) {
          block_indent = indent;
          next();
          continue;
        }
      } else if (indent >= block_indent) {
        next();
        continue;
      }
      block_indent = -1;  // a less indented line ends the block
    }
    bool token_start = true;  // where a quoted scalar or a block indicator may begin
    for (std::size_t k = 0; k < line.size(); ++k) {
      char c = line[k];
      if (quote == Quote::Double) {
        if (c == '\\') ++k;
        else if (c == '"') quote = Quote::None, token_start = false;
        continue;
      }
      if (quote == Quote::Single) {
        if (c == '\'' && k + 1 < line.size() && line[k + 1] == '\'') ++k;
        else if (c == '\'') quote = Quote::None, token_start = false;
        continue;
      }
      if (blank(c)) continue;
      if (c == '#' && (k == 0 || blank(line[k - 1]))) {
        std::size_t end = line.size();
        while (end > k && blank(line[end - 1])) --end;
        out.push_back({start + k, start + end, line_no, char_column(text, start, start + k)});
        break;
      }
      if (token_start && (c == '"' || c == '\'')) {
        quote = c == '"' ? Quote::Double : Quote::Single;
        continue;
      }
      if (token_start && (c == '|' || c == '>') && opens_block_scalar(line, k)) {
        block_pending = true;
        block_parent = leading_spaces(line);
        token_start = false;
        continue;
      }
      bool then_blank = k + 1 >= line.size() || blank(line[k + 1]);
      if ((c == '-' || c == '?' || c == ':') && then_blank) token_start = true;
      else if (c == '[' || c == '{' || c == ',') token_start = true;
      else if (token_start && (c == '!' || c == '&')) {  // a tag or an anchor before the value
        while (k + 1 < line.size() && !blank(line[k + 1])) ++k;
      } else token_start = false;
    }
    if (eol >= text.size()) break;
    next();
  }
  return out;
}

namespace {

bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_'; }

// "QS005", "E501": letters then digits, the shape of a code (known or not).
bool code_shaped(std::string_view w) {
  std::size_t i = 0;
  while (i < w.size() && std::isalpha(static_cast<unsigned char>(w[i]))) ++i;
  if (i == 0 || i == w.size()) return false;
  for (; i < w.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(w[i]))) return false;
  return true;
}

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

bool iequals(std::string_view a, std::string_view b) { return to_lower(a) == to_lower(b); }

bool known_code(const std::string& code) {
  if (code.size() != 5 || code.rfind("QS", 0) != 0) return false;
  const RuleInfo* r = find_rule(code);
  return r && r->code == code;
}

// Tries to read a directive at the '#' at `p` (within [p, end) of `text`).
std::optional<NoqaDirective> directive_at(std::string_view text, std::size_t p, std::size_t end, std::size_t line_start,
                                          int line) {
  std::size_t i = p + 1;
  auto skip = [&] { while (i < end && blank(text[i])) ++i; };
  skip();
  if (end - i < 4 || !iequals(text.substr(i, 4), "qsel")) return std::nullopt;
  i += 4;
  skip();
  if (i >= end || text[i] != ':') return std::nullopt;
  ++i;
  skip();
  NoqaDirective d;
  d.line = line;
  d.column = char_column(text, line_start, p);
  d.begin = p;
  std::size_t w = i;
  while (i < end && word_char(text[i])) ++i;
  std::string word = to_lower(text.substr(w, i - w));
  d.end = i;
  if (word != "noqa" && word != "noqa-file") {
    d.end = std::max(i, std::min(end, w + 1));
    d.problem = word.empty() ? "a \"# qsel:\" comment names no directive (expected noqa or noqa-file)"
                             : fmt::format("unknown qsel directive {} (expected noqa or noqa-file)", quote_value(printable(word)));
    return d;
  }
  d.file_level = word == "noqa-file";
  std::size_t after_word = i;
  skip();
  if (i >= end || text[i] == '#') return d;  // a blanket directive
  if (text[i] != ':') {
    std::size_t t = i;
    while (t < end && word_char(text[t])) ++t;
    if (code_shaped(text.substr(i, t - i))) {
      d.end = t;
      d.problem = fmt::format("a ':' goes between {} and its codes (# qsel: {}: {})", word, word, upper(text.substr(i, t - i)));
    }
    d.end = std::max(d.end, after_word);
    return d;  // free text after a blanket directive
  }
  ++i;
  for (;;) {
    skip();
    std::size_t t = i;
    while (t < end && word_char(text[t])) ++t;
    std::string_view tok = text.substr(i, t - i);
    if (!code_shaped(tok)) break;  // the list ends; free text may follow
    NoqaCode c{upper(tok), i, t, char_column(text, line_start, i), false};
    c.known = known_code(c.code);
    d.codes.push_back(std::move(c));
    d.end = t;
    i = t;
    std::size_t before_sep = i;
    skip();
    if (i < end && text[i] == ',') {
      ++i;
      continue;
    }
    std::size_t n = i;
    while (n < end && word_char(text[n])) ++n;
    if (n > i && code_shaped(text.substr(i, n - i))) continue;  // codes separated by blanks only
    i = before_sep;
    break;
  }
  if (d.codes.empty()) {
    d.end = std::max(d.end, i);
    d.problem = fmt::format("expected codes after \"{}:\" (# qsel: {}: QS005, QS012)", word, word);
  }
  return d;
}

}  // namespace

std::vector<NoqaDirective> noqa_directives(std::string_view text) {
  std::vector<NoqaDirective> out;
  std::size_t line_start = 0;
  int line = 1;
  for (const YamlComment& c : yaml_comments(text)) {
    for (; line < c.line; ++line) line_start = text.find('\n', line_start) + 1;
    // A directive may follow other words in the comment ("# seed value # qsel: noqa: QS005").
    for (std::size_t p = c.begin; p < c.end; ++p) {
      if (text[p] != '#' || (p > c.begin && !blank(text[p - 1]))) continue;
      if (auto d = directive_at(text, p, c.end, line_start, c.line)) {
        out.push_back(std::move(*d));
        break;
      }
    }
  }
  return out;
}

std::string noqa_file_text(const std::string& file, const FileOverlay* overlay) {
  if (overlay && overlay->is(file)) return overlay->text.substr(0, kMaxRecordFileBytes);
  try {
    return read_text_file(file, kMaxRecordFileBytes, "record file");
  } catch (const UsageError&) {
    return "";  // gone or unreadable: the loader already reported it
  }
}

namespace {

struct Use {
  std::vector<bool> codes;  // per code: it suppressed something
  bool any = false;         // a blanket directive suppressed something
};

bool matches(const NoqaDirective& d, const Finding& f, Use& use) {
  if (!d.problem.empty()) return false;
  if (d.is_blanket()) return use.any = true;
  for (std::size_t i = 0; i < d.codes.size(); ++i)
    if (d.codes[i].code == f.code) return use.codes[i] = true;
  return false;
}

Finding noqa_finding(const char* code, const std::string& file, Mark at, std::string message) {
  const RuleInfo* r = find_rule(code);
  Finding f;
  f.code = code;
  f.name = r ? std::string(r->name) : "";
  f.severity = r ? r->severity : Severity::Warning;
  f.file = file;
  f.mark = at;
  f.message = std::move(message);
  return f;
}

void line_of(std::string_view text, std::size_t offset, std::size_t& line_start, std::size_t& line_end) {
  line_start = offset == 0 ? std::string_view::npos : text.rfind('\n', offset - 1);
  line_start = line_start == std::string_view::npos ? 0 : line_start + 1;
  line_end = text.find('\n', offset);
  if (line_end == std::string_view::npos) line_end = text.size();
}

// The fix removing directive `d` whole: the comment and the blanks before it, or the
// whole line when nothing else is on it.
Fix remove_directive(std::string_view text, const NoqaDirective& d) {
  std::size_t ls = 0, le = 0;
  line_of(text, d.begin, ls, le);
  std::size_t from = d.begin;
  while (from > ls && blank(text[from - 1])) --from;
  std::size_t to = d.end;
  std::size_t rest = to;
  while (rest < le && (blank(text[rest]) || text[rest] == '\r')) ++rest;
  Fix fix;
  fix.verbatim = true;
  if (from == ls && rest == le) {  // the directive is the whole line: remove the line
    std::size_t stop = le < text.size() ? le + 1 : le;
    fix.at = Mark{d.line, 1};
    fix.old_text = std::string(text.substr(ls, stop - ls));
    return fix;
  }
  if (rest < le) {  // more comment follows ("# qsel: noqa # why"): keep it, drop the directive and its blanks
    from = d.begin;
    to = rest;
  }
  fix.at = Mark{d.line, char_column(text, ls, from)};
  fix.old_text = std::string(text.substr(from, to - from));
  return fix;
}

// The fix removing the codes at `drop` from `d`'s list, keeping the others with the
// separators written before them.
Fix remove_codes(std::string_view text, const NoqaDirective& d, const std::vector<bool>& drop) {
  std::size_t ls = 0, le = 0;
  line_of(text, d.begin, ls, le);
  std::string kept;
  bool first = true;
  for (std::size_t i = 0; i < d.codes.size(); ++i) {
    if (drop[i]) continue;
    if (!first) kept += std::string(text.substr(d.codes[i - 1].end, d.codes[i].begin - d.codes[i - 1].end));
    kept += std::string(text.substr(d.codes[i].begin, d.codes[i].end - d.codes[i].begin));
    first = false;
  }
  Fix fix;
  fix.verbatim = true;
  std::size_t from = d.codes.front().begin, to = d.codes.back().end;
  fix.at = Mark{d.line, char_column(text, ls, from)};
  fix.old_text = std::string(text.substr(from, to - from));
  fix.new_text = kept;
  return fix;
}

bool enabled_for(const LintSettings& settings, const std::string& code, const std::string& file) {
  Finding probe;
  probe.code = code;
  probe.file = file;
  return settings.keeps(probe);
}

// QS046 for a directive that suppressed nothing, or some of whose codes did not.
void report_unused(const NoqaDirective& d, const Use& use, std::string_view text, const std::string& file,
                   const LintSettings& settings, Findings& out) {
  const char* kind = d.file_level ? "noqa-file" : "noqa";
  if (d.is_blanket()) {
    if (use.any) return;
    Finding f = noqa_finding("QS046", file, {d.line, d.column},
                             d.file_level ? "unused blanket noqa-file directive: the file has no finding to suppress"
                                          : "unused blanket noqa directive: no finding on this line to suppress");
    f.fix = remove_directive(text, d);
    out.push_back(std::move(f));
    return;
  }
  std::vector<bool> drop(d.codes.size(), false);
  std::vector<std::string> unused, disabled;
  bool all_known_dropped = true;
  for (std::size_t i = 0; i < d.codes.size(); ++i) {
    if (!d.codes[i].known) {
      all_known_dropped = false;  // QS047 names it; the fix leaves it for a person to correct
      continue;
    }
    if (use.codes[i]) {
      all_known_dropped = false;
      continue;
    }
    bool dup = false;
    for (std::size_t j = 0; j < i; ++j) dup = dup || (d.codes[j].code == d.codes[i].code && !drop[j]);
    drop[i] = true;
    (dup || enabled_for(settings, d.codes[i].code, file) ? unused : disabled).push_back(d.codes[i].code);
  }
  if (unused.empty() && disabled.empty()) return;
  std::string what;
  if (!unused.empty()) what = fmt::format("unused: {}", fmt::join(unused, ", "));
  if (!disabled.empty()) what += fmt::format("{}not enabled: {}", what.empty() ? "" : "; ", fmt::join(disabled, ", "));
  Finding f = noqa_finding("QS046", file, {d.line, d.column}, fmt::format("unused {} directive ({})", kind, what));
  f.fix = all_known_dropped ? remove_directive(text, d) : remove_codes(text, d, drop);
  out.push_back(std::move(f));
}

void report_invalid(const NoqaDirective& d, const std::string& file, Findings& out) {
  if (!d.problem.empty()) {
    out.push_back(noqa_finding("QS047", file, {d.line, d.column}, fmt::format("malformed noqa directive: {}", d.problem)));
    return;
  }
  for (const NoqaCode& c : d.codes) {
    if (c.known) continue;
    std::vector<std::string> near = suggest_rules(c.code);
    std::string hint = near.empty() ? "" : fmt::format(" (did you mean {}?)", near.front());
    out.push_back(noqa_finding("QS047", file, {d.line, c.column},
                               fmt::format("unknown code {} in a {} directive{}", quote_value(printable(c.code)),
                                           d.file_level ? "noqa-file" : "noqa", hint)));
  }
}

}  // namespace

std::size_t apply_noqa_to_file(Findings& findings, const std::string& file, std::string_view text,
                               const LintSettings& settings) {
  if (text.find("qsel") == std::string_view::npos && to_lower(text).find("qsel") == std::string::npos) return 0;
  std::vector<NoqaDirective> dirs = noqa_directives(text);
  if (dirs.empty()) return 0;
  std::vector<Use> use(dirs.size());
  for (std::size_t i = 0; i < dirs.size(); ++i) use[i].codes.assign(dirs[i].codes.size(), false);
  std::multimap<int, std::size_t> by_line;
  for (std::size_t i = 0; i < dirs.size(); ++i)
    if (!dirs[i].file_level) by_line.emplace(dirs[i].line, i);
  auto suppressed_by_file = [&](const Finding& f) {
    bool hit = false;
    for (std::size_t i = 0; i < dirs.size(); ++i)
      if (dirs[i].file_level) hit = matches(dirs[i], f, use[i]) || hit;
    return hit;
  };
  std::size_t suppressed = 0;
  std::erase_if(findings, [&](const Finding& f) {
    if (f.file != file) return false;
    bool hit = suppressed_by_file(f);  // as ruff: file-level exemptions first
    if (!hit && f.mark.known()) {
      auto [a, b] = by_line.equal_range(f.mark.line);
      for (auto it = a; it != b && !hit; ++it) hit = matches(dirs[it->second], f, use[it->second]);
    }
    suppressed += hit ? 1 : 0;
    return hit;
  });
  // What the directives themselves say: line directives first, so that a file-level
  // `noqa-file: QS046` can silence them; then the file-level ones.
  Findings own;
  for (std::size_t i = 0; i < dirs.size(); ++i) {
    report_invalid(dirs[i], file, own);
    if (!dirs[i].file_level && dirs[i].problem.empty()) report_unused(dirs[i], use[i], text, file, settings, own);
  }
  std::erase_if(own, [&](const Finding& f) {
    bool hit = settings.keeps(f) ? suppressed_by_file(f) : true;
    suppressed += hit && settings.keeps(f) ? 1 : 0;
    return hit;
  });
  for (std::size_t i = 0; i < dirs.size(); ++i)
    if (dirs[i].file_level && dirs[i].problem.empty()) report_unused(dirs[i], use[i], text, file, settings, own);
  for (Finding& f : own)
    if (settings.keeps(f)) findings.push_back(std::move(f));
  return suppressed;
}

std::size_t apply_noqa(Findings& findings, const std::vector<std::string>& files, const LintSettings& settings,
                       const FileOverlay* overlay) {
  std::size_t suppressed = 0;
  for (const std::string& file : files) {
    std::string text = noqa_file_text(file, overlay);
    suppressed += apply_noqa_to_file(findings, file, text, settings);
  }
  return suppressed;
}

}  // namespace qsel
