#include "yaml_strict.h"

#include <algorithm>

#include <fmt/format.h>

namespace qsel::yaml_strict {
namespace {

bool is_ws(char c) { return c == ' ' || c == '\t'; }
bool is_eol(char c) { return c == '\n' || c == '\r'; }
bool is_flow_indicator(char c) { return c == ',' || c == '[' || c == ']' || c == '{' || c == '}'; }
bool is_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

// YAML 1.2 double-quoted escapes that take no digits (production c-ns-esc-char).
bool simple_escape(char c) {
  switch (c) {
    case '0': case 'a': case 'b': case 't': case '\t': case 'n': case 'v': case 'f': case 'r': case 'e':
    case ' ': case '"': case '/': case '\\': case 'N': case '_': case 'L': case 'P':
      return true;
    default:
      return false;
  }
}

std::string shown_char(char c) {
  auto u = static_cast<unsigned char>(c);
  if (u >= 0x21 && u < 0x7f) return std::string(1, c);
  return fmt::format("\\x{:02X}", u);
}

const char* kCommentSpace = "a '#' comment must be separated from the text before it by a space";

std::string indent_message(bool tab, int need, int have, const char* what) {
  if (tab)
    return fmt::format("tab used to indent a line that continues {}; YAML indents with spaces only (this line needs at least {})",
                       what, need);
  return fmt::format("this line continues {} and must be indented more than its enclosing block: at least {} space{}, not {}",
                     what, need, need == 1 ? "" : "s", have);
}

}  // namespace

bool Checker::blank_or_end(std::size_t i) const { return end(i) || is_ws(t_[i]) || is_eol(t_[i]); }

bool Checker::document_marker(std::size_t s) const {
  if (s + 3 > t_.size()) return false;
  std::string_view three = t_.substr(s, 3);
  return (three == "---" || three == "...") && blank_or_end(s + 3);
}

std::size_t Checker::line_end(std::size_t i) const {
  while (!end(i) && t_[i] != '\n') ++i;
  return i;
}

// `!tag`, `&anchor` and the spaces after them, on the same line.
std::size_t Checker::skip_properties(std::size_t p) const {
  while (at(p) == '!' || at(p) == '&') {
    while (!blank_or_end(p)) ++p;
    while (is_ws(at(p))) ++p;
  }
  return p;
}

void Checker::add(std::size_t pos, std::string message) {
  for (const Issue& i : issues_)
    if (i.pos == pos) return;
  if (issues_.size() < max_) issues_.push_back({pos, std::move(message)});
}

std::vector<Issue> Checker::issues() const {
  std::vector<Issue> out = issues_;
  std::stable_sort(out.begin(), out.end(), [](const Issue& a, const Issue& b) { return a.pos < b.pos; });
  return out;
}

int Checker::block_column(std::size_t pos, int column) const {
  std::size_t p = std::min(pos, t_.size());
  if (at(p) != '!' && at(p) != '&') return column;
  p = skip_properties(p);
  while (!end(p)) {  // the collection's first entry may start on a later line
    if (is_ws(t_[p]) || is_eol(t_[p])) ++p;
    else if (t_[p] == '#') p = line_end(p);
    else break;
  }
  std::size_t s = p;
  while (s > 0 && t_[s - 1] != '\n') --s;
  return static_cast<int>(p - s);
}

void Checker::document_prefix() {
  std::size_t i = 0, directive = std::string_view::npos;
  if (t_.substr(0, 3) == "\xEF\xBB\xBF") i = 3;
  while (!end(i)) {
    std::size_t k = i;
    while (is_ws(at(k))) ++k;
    if (end(k) || is_eol(t_[k]) || t_[k] == '#' || (k == i && t_[k] == '%')) {
      if (k == i && at(k) == '%') directive = i;
      i = line_end(k) + 1;
      continue;
    }
    if (directive != std::string_view::npos && !(t_.substr(i, 3) == "---" && blank_or_end(i + 3)))
      add(i, "a directive (a '%' line) must be followed by '---', the start of the document");
    return;
  }
  if (directive != std::string_view::npos) add(directive, "a directive (a '%' line) with no document after it");
}

bool Checker::continuation_line(std::size_t s, int min_indent, bool flow, bool report) {
  const char* what = flow ? "a [...] or {...} collection" : "a quoted string";
  if (document_marker(s)) {
    if (report)
      add(s, fmt::format("'{}' at the start of a line ends the document, so it cannot continue {}", t_.substr(s, 3), what));
    return false;
  }
  if (min_indent <= 0) return true;
  std::size_t k = s;
  while (at(k) == ' ') ++k;
  int spaces = static_cast<int>(k - s);
  std::size_t first = k;
  while (is_ws(at(k))) ++k;
  if (end(k) || is_eol(t_[k])) return true;  // an empty line may be indented less
  if (flow && t_[k] == '#') return true;      // so may a comment line between entries
  if (spaces >= min_indent) return true;
  if (report) add(first, indent_message(at(first) == '\t', min_indent, spaces, what));
  return false;
}

std::size_t Checker::quoted(std::size_t pos, int min_indent, bool report) {
  const char q = t_[pos];
  const bool dq = q == '"';
  bool reported = !report;  // one problem per string is enough
  std::size_t i = pos + 1;
  while (!end(i)) {
    char c = t_[i];
    if (c == q) {
      if (!dq && at(i + 1) == '\'') {
        i += 2;
        continue;
      }
      return i + 1;
    }
    if (c == '\n') {
      ++i;
      if (!reported && !continuation_line(i, min_indent, false, true)) reported = true;
      continue;
    }
    if (dq && c == '\\') {
      char e = at(i + 1);
      if (is_eol(e)) {  // an escaped line break: the next line is checked like any other
        ++i;
        continue;
      }
      std::size_t digits = e == 'x' ? 2 : e == 'u' ? 4 : e == 'U' ? 8 : 0;
      if (digits > 0) {
        std::size_t n = 0;
        while (n < digits && is_hex(at(i + 2 + n))) ++n;
        if (n < digits && !reported) {
          add(i, fmt::format("invalid escape sequence in a double-quoted string: \\{} needs {} hex digits", e, digits));
          reported = true;
        }
        i += 2 + n;
        continue;
      }
      if (!simple_escape(e) && !end(i + 1) && !reported) {
        add(i, fmt::format("invalid escape sequence \\{} in a double-quoted string; write a single quote as ' (it needs "
                           "no escape), a backslash as \\\\",
                           shown_char(e)));
        reported = true;
      }
      i += end(i + 1) ? 1 : 2;
      continue;
    }
    ++i;
  }
  if (report)
    add(pos, fmt::format("unterminated {}-quoted string: no closing {} before the end of the file",
                         dq ? "double" : "single", q));
  return std::string_view::npos;
}

bool Checker::explicit_key(std::size_t pos) const {
  std::size_t i = pos;
  while (i > 0 && (is_ws(t_[i - 1]) || is_eol(t_[i - 1]))) --i;
  return i > 0 && t_[i - 1] == '?' && (i == 1 || is_ws(t_[i - 2]) || is_eol(t_[i - 2]));
}

void Checker::plain(std::size_t pos, std::size_t p, const Place& place) {
  char c = at(p);
  char next = at(p + 1);
  if ((c == '-' || c == '?' || c == ':') && (blank_or_end(p + 1) || (place.in_flow && is_flow_indicator(next)))) {
    add(p, fmt::format("'{}' followed by {} is YAML syntax, not a value here; quote it (\"{}\") if you mean the text", c,
                       blank_or_end(p + 1) ? "a space or line end" : fmt::format("'{}'", next), c));
    return;
  }
  if (!place.block_key) return;
  // An implicit key ends at the first ':' followed by a space or the line end,
  // on its own line; a ' #' starts a comment first.
  for (std::size_t i = p; !end(i) && !is_eol(t_[i]); ++i) {
    if (t_[i] == ':' && blank_or_end(i + 1)) return;
    if (is_ws(t_[i]) && at(i + 1) == '#') break;
  }
  if (explicit_key(pos)) return;
  add(p, "this text sits where a mapping key belongs but has no ':' after it; indent it to continue the value above, "
         "or add ': ' to make it a key");
}

void Checker::block_scalar(std::size_t p, int block_column) {
  std::size_t i = p + 1;
  bool indent_given = false, chomp_given = false;
  for (int k = 0; k < 2; ++k) {
    char c = at(i);
    if (c >= '1' && c <= '9' && !indent_given) indent_given = true;
    else if ((c == '+' || c == '-') && !chomp_given) chomp_given = true;
    else break;
    ++i;
  }
  if (at(i) == '#') {
    add(i, kCommentSpace);
    return;
  }
  std::size_t k = i;
  while (is_ws(at(k))) ++k;
  if (!end(k) && !is_eol(t_[k]) && t_[k] != '#') {
    add(k, fmt::format("unexpected text after the block scalar indicator '{}': its text starts on the next line", t_[p]));
    return;
  }
  if (indent_given) return;
  // Leading empty lines may not hold more spaces than the first text line:
  // that line sets the indentation.
  std::size_t line = line_end(k);
  if (end(line)) return;
  ++line;
  int most = 0;
  std::size_t most_at = 0;
  while (!end(line)) {
    std::size_t j = line;
    while (at(j) == ' ') ++j;
    int spaces = static_cast<int>(j - line);
    if (end(j)) return;  // no text at all
    if (is_eol(t_[j])) {
      if (spaces > most) most = spaces, most_at = line;
      line = line_end(j) + 1;
      continue;
    }
    if (spaces > block_column && spaces < most)
      add(most_at + static_cast<std::size_t>(spaces),
          fmt::format("this empty line of a block scalar has {} spaces, more than the {} of its first text line, which "
                      "sets the indentation; remove the trailing spaces",
                      most, spaces));
    return;
  }
}

void Checker::scalar(std::size_t pos, const Place& place) {
  if (pos >= t_.size()) return;
  std::size_t p = skip_properties(pos);
  if (end(p) || is_eol(t_[p])) return;  // properties alone on their line: the value is elsewhere
  char c = t_[p];
  if (p != pos && (c == ',' || c == ']' || c == '}' || c == '#' ||
                   (c == ':' && (blank_or_end(p + 1) || (place.in_flow && is_flow_indicator(at(p + 1)))))))
    return;  // `!!str :`: properties on an empty value; what follows is the next token
  if (c == '"' || c == '\'') {
    std::size_t after = quoted(p, place.block_column + 1, true);
    if (after == std::string_view::npos) return;
    if (at(after) == '#') {
      add(after, kCommentSpace);
      return;
    }
    if (!place.block_key || explicit_key(pos)) return;
    std::size_t k = after;
    while (is_ws(at(k))) ++k;
    if (at(k) != ':')
      add(k, "a quoted mapping key must be followed by ':' on the same line");
    return;
  }
  if (c == '|' || c == '>') {
    block_scalar(p, place.block_column);
    return;
  }
  plain(pos, p, place);
}

void Checker::flow_collection(std::size_t pos, const Place& place) {
  if (place.in_flow || pos < flow_scanned_to_ || pos >= t_.size()) return;
  const int min_indent = place.block_column + 1;
  std::size_t i = skip_properties(pos);
  if (at(i) != '[' && at(i) != '{') return;
  std::size_t depth = 0;
  bool expect_entry = false, reported = false;
  auto report = [&](std::size_t where, std::string message) {
    if (!reported) add(where, std::move(message));
    reported = true;
  };
  while (!end(i)) {
    char c = t_[i];
    if (c == '\n') {
      ++i;
      if (!reported && !continuation_line(i, min_indent, true, true)) reported = true;
      continue;
    }
    if (is_ws(c) || c == '\r') {
      ++i;
      continue;
    }
    if (c == '#') {
      if (i > 0 && !is_ws(t_[i - 1]) && !is_eol(t_[i - 1])) report(i, kCommentSpace);
      i = line_end(i);
      continue;
    }
    if (c == '[' || c == '{') {
      ++depth;
      expect_entry = true;
      ++i;
      continue;
    }
    if (c == ']' || c == '}') {
      expect_entry = false;
      ++i;
      if (depth <= 1) {
        if (at(i) == '#') report(i, kCommentSpace);
        break;
      }
      --depth;
      continue;
    }
    if (c == ',') {
      if (expect_entry) report(i, "',' with no entry before it: remove it (only the last entry may have a ',' after it)");
      expect_entry = true;
      ++i;
      continue;
    }
    expect_entry = false;
    if (c == '"' || c == '\'') {
      i = quoted(i, min_indent, false);  // the scalar's own check reports its problems
      if (i == std::string_view::npos) i = t_.size();
      continue;
    }
    if ((c == ':' || c == '?') && (blank_or_end(i + 1) || is_flow_indicator(at(i + 1)))) {
      ++i;
      continue;
    }
    // A plain scalar, alias, tag or anchor: up to a flow indicator, the line's
    // end, a " #" comment or a ':' indicator.
    for (++i; !end(i); ++i) {
      char d = t_[i];
      if (is_flow_indicator(d) || is_eol(d)) break;
      if (is_ws(d) && at(i + 1) == '#') break;
      if (d == ':' && (blank_or_end(i + 1) || is_flow_indicator(at(i + 1)))) break;
    }
  }
  flow_scanned_to_ = std::max(flow_scanned_to_, i);
}

}  // namespace qsel::yaml_strict
