#include "yaml_block.h"

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "qsel/core/text.h"

namespace qsel::yaml_block {
using nlohmann::json;
namespace {

// Thrown to give the file to the general reader.
struct GiveUp {};

[[noreturn]] void give_up() { throw GiveUp{}; }

struct Line {
  std::size_t start = 0;  // first byte
  std::size_t first = 0;  // first non-space byte (== end for a blank line)
  std::size_t end = 0;    // the '\n' or the end of the text
  bool ascii = true;
  int indent() const { return static_cast<int>(first - start); }
  bool blank() const { return first == end; }
};

// Characters a plain scalar may not start with in the subset (YAML indicators).
bool indicator(char c) {
  switch (c) {
    case '-': case '?': case ':': case ',': case '[': case ']': case '{': case '}': case '#': case '&': case '*':
    case '!': case '|': case '>': case '\'': case '"': case '%': case '@': case '`':
      return true;
    default:
      return false;
  }
}

class Reader {
 public:
  Reader(std::string_view text, const YamlLimits& limits, YamlDocument& doc) : t_(text), limits_(limits), doc_(doc) {
    split_lines();
  }

  json read_root() {
    std::size_t i = next_content(0);
    if (i == lines_.size() || lines_[i].indent() != 0) give_up();
    std::size_t line = i;
    json root = mapping(line, lines_[i].first, 0, 1);
    if (next_content(line + 1) != lines_.size()) give_up();
    return root;
  }

 private:
  std::string_view t_;
  const YamlLimits& limits_;
  YamlDocument& doc_;
  std::vector<Line> lines_;
  std::size_t nodes_ = 0;
  Mark pending_key_;  // the key whose value is about to be made
  // The JSON pointer of the node being read: a child's token is appended while
  // the child is read and taken off after, so no node allocates a pointer.
  std::string path_;

  struct Child {
    Child(Reader& r, std::string_view token) : r_(r), size_(r.path_.size()) {
      r.path_ += '/';
      for (char c : token) {
        if (c == '~') r.path_ += "~0";
        else if (c == '/') r.path_ += "~1";
        else r.path_ += c;
      }
    }
    Child(Reader& r, std::size_t index) : Child(r, std::to_string(index)) {}
    ~Child() { r_.path_.resize(size_); }
    Child(const Child&) = delete;
    Child& operator=(const Child&) = delete;
    Reader& r_;
    std::size_t size_;
  };

  // Every node is made once, so its mark is appended without a lookup; a
  // mapping value's mark carries its key's.
  void add_mark(Mark m) {
    doc_.marks.append(path_, m, pending_key_);
    pending_key_ = {};
  }

  void split_lines() {
    if (t_.size() >= 3 && t_.substr(0, 3) == "\xEF\xBB\xBF") give_up();  // a BOM: the general reader's business
    std::size_t s = 0;
    while (s < t_.size()) {
      std::size_t e = t_.find('\n', s);
      if (e == std::string_view::npos) e = t_.size();
      Line l{s, s, e, true};
      while (l.first < e && t_[l.first] == ' ') ++l.first;
      for (std::size_t k = s; k < e; ++k) {
        auto c = static_cast<unsigned char>(t_[k]);
        if (c < 0x20 || c == 0x7F) give_up();  // tabs, CRs and control characters: the general reader's
        if (c < 0x80) continue;
        l.ascii = false;
        // C1 controls (U+0080-U+009F), U+FEFF inside the text, U+FFFE and U+FFFF are not YAML text either.
        auto d = static_cast<unsigned char>(at(k + 1)), f = static_cast<unsigned char>(at(k + 2));
        if ((c == 0xC2 && d < 0xA0) || (c == 0xEF && ((d == 0xBB && f == 0xBF) || (d == 0xBF && f >= 0xBE)))) give_up();
      }
      if (l.first == s && l.first < e && (t_[s] == '%' || document_marker(s))) give_up();
      lines_.push_back(l);
      if (lines_.size() > limits_.max_nodes) give_up();
      s = e + 1;
    }
  }

  bool document_marker(std::size_t s) const {
    if (s + 3 > t_.size()) return false;
    std::string_view three = t_.substr(s, 3);
    return three == "---" || three == "...";
  }

  char at(std::size_t p) const { return p < t_.size() ? t_[p] : '\n'; }
  bool comment_line(const Line& l) const { return !l.blank() && t_[l.first] == '#'; }
  // The first line at or after `i` that is neither blank nor a comment.
  std::size_t next_content(std::size_t i) const {
    while (i < lines_.size() && (lines_[i].blank() || comment_line(lines_[i]))) ++i;
    return i;
  }

  Mark mark(std::size_t line, std::size_t pos) const {
    const Line& l = lines_[line];
    std::size_t col = l.ascii ? pos - l.start : utf8_length(t_.substr(l.start, pos - l.start));
    return {static_cast<int>(line) + 1, static_cast<int>(col) + 1};
  }

  void count_node() {
    if (++nodes_ > limits_.max_nodes) give_up();
  }

  // Spaces, then the end of the line or a comment; else give up.
  void expect_line_end(std::size_t line, std::size_t p) const {
    const Line& l = lines_[line];
    std::size_t q = p;
    while (q < l.end && t_[q] == ' ') ++q;
    if (q == l.end) return;
    if (t_[q] == '#' && q > p) return;
    give_up();
  }

  // A quoted scalar at `p` that closes on its own line and has no backslash
  // escape ('' in single quotes is one quote): its text goes to `out` and the
  // closing quote's position comes back; npos when it is not such a scalar.
  std::size_t one_line_quoted(std::size_t line, std::size_t p, std::string& out) const {
    const Line& l = lines_[line];
    char c = t_[p];
    for (std::size_t q = p + 1; q < l.end; ++q) {
      if (c == '"' && t_[q] == '\\') return std::string_view::npos;
      if (t_[q] != c) {
        out += t_[q];
      } else if (c == '\'' && q + 1 < l.end && t_[q + 1] == '\'') {
        out += '\'';
        ++q;
      } else {
        return q;
      }
    }
    return std::string_view::npos;
  }

  // A mapping key at `p` of `line`: a plain one, or a one-line quoted one
  // without escapes, then ':' and a space or the line's end. Returns the
  // position after the ':' (and the key's text in `key`), or npos when the
  // text there is no key.
  std::size_t key_end(std::size_t line, std::size_t p, std::string* key = nullptr) const {
    const Line& l = lines_[line];
    if (p >= l.end) return std::string_view::npos;
    char c = t_[p];
    auto colon_after = [&](std::size_t q) -> std::size_t {
      if (q >= l.end || t_[q] != ':') return std::string_view::npos;
      if (q + 1 < l.end && t_[q + 1] != ' ') return std::string_view::npos;
      return q + 1;
    };
    if (c == '\'' || c == '"') {
      std::string text;
      std::size_t close = one_line_quoted(line, p, text);
      if (close == std::string_view::npos) return std::string_view::npos;
      std::size_t after = colon_after(close + 1);
      if (after != std::string_view::npos && key) *key = std::move(text);
      return after;
    }
    if (indicator(c) && !(c == '-' && p + 1 < l.end && t_[p + 1] != ' ')) return std::string_view::npos;
    for (std::size_t q = p; q < l.end; ++q) {
      if (t_[q] == '#' && t_[q - 1] == ' ') return std::string_view::npos;
      if (t_[q] != ':') continue;
      std::size_t after = colon_after(q);
      if (after == std::string_view::npos) continue;
      if (t_[q - 1] == ' ') return std::string_view::npos;  // "key :": the general reader's
      if (key) *key = std::string(t_.substr(p, q - p));
      return after;
    }
    return std::string_view::npos;
  }

  // A block mapping whose entries sit at column `indent`; the first key is at
  // `p` on `line` (which may follow a "- " on that line). Leaves `line` on the
  // last line the mapping used.
  json mapping(std::size_t& line, std::size_t p, int indent, std::size_t depth) {
    if (depth > limits_.max_depth) give_up();
    count_node();
    json obj = json::object();
    auto& map = obj.get_ref<json::object_t&>();
    add_mark(mark(line, p));
    for (;;) {
      std::string key;
      std::size_t after = key_end(line, p, &key);
      if (after == std::string_view::npos) give_up();
      if (t_[p] != '\'' && t_[p] != '"') {  // a plain key that reads as null or a non-finite number is an error
        json k = resolve_plain_scalar(key);
        if (k.is_null() || (k.is_number_float() && !std::isfinite(k.get<double>()))) give_up();
      }
      count_node();
      if (key.size() > limits_.max_scalar_chars) give_up();
      if (map.count(key)) give_up();  // a duplicate: the general reader reports it
      {
        Child child(*this, key);
        pending_key_ = mark(line, p);  // taken by the value's own mark, made first
        json v = value_after_key(line, after, indent, depth);
        map.emplace(std::move(key), std::move(v));
      }
      std::size_t n = next_content(line + 1);
      if (n == lines_.size() || lines_[n].indent() < indent) return obj;
      if (lines_[n].indent() > indent) give_up();
      line = n;
      p = lines_[n].first;
    }
  }

  // The value of the key whose ':' ends just before `p`.
  json value_after_key(std::size_t& line, std::size_t p, int indent, std::size_t depth) {
    const Line& l = lines_[line];
    std::size_t q = p;
    while (q < l.end && t_[q] == ' ') ++q;
    if (q < l.end && !(t_[q] == '#' && q > p)) return inline_value(line, q, indent, depth);
    // Nothing more on the line: a nested block, or null.
    std::size_t n = next_content(line + 1);
    if (n < lines_.size()) {
      const Line& nl = lines_[n];
      bool dash = t_[nl.first] == '-' && (nl.first + 1 == nl.end || t_[nl.first + 1] == ' ');
      if (nl.indent() > indent || (nl.indent() == indent && dash)) {
        line = n;
        return block_node(line, nl.indent(), depth + 1);
      }
    }
    give_up();  // an empty value: rare in records; the general reader knows where its null sits
  }

  // A block mapping or sequence starting at the first content of `line`.
  json block_node(std::size_t& line, int indent, std::size_t depth) {
    const Line& l = lines_[line];
    if (t_[l.first] == '-' && (l.first + 1 == l.end || t_[l.first + 1] == ' ')) return sequence(line, indent, depth);
    if (key_end(line, l.first) != std::string_view::npos) return mapping(line, l.first, indent, depth);
    give_up();
  }

  json sequence(std::size_t& line, int indent, std::size_t depth) {
    if (depth > limits_.max_depth) give_up();
    count_node();
    json arr = json::array();
    auto& items = arr.get_ref<json::array_t&>();
    add_mark(mark(line, lines_[line].first));
    for (;;) {
      const Line& l = lines_[line];
      if (items.size() >= limits_.max_items) give_up();
      Child child(*this, items.size());
      std::size_t q = l.first + 1;
      while (q < l.end && t_[q] == ' ') ++q;
      if (q == l.end || t_[q] == '#') give_up();  // "-" alone: a nested block or a null item
      if (t_[q] == '-' && (q + 1 == l.end || t_[q + 1] == ' ')) give_up();  // "- - x"
      int item_indent = static_cast<int>(q - l.start);
      if (key_end(line, q) != std::string_view::npos) items.push_back(mapping(line, q, item_indent, depth + 1));
      else items.push_back(inline_value(line, q, indent, depth));
      std::size_t n = next_content(line + 1);
      if (n == lines_.size() || lines_[n].indent() < indent) return arr;
      const Line& nl = lines_[n];
      if (nl.indent() > indent || t_[nl.first] != '-' || !(nl.first + 1 == nl.end || t_[nl.first + 1] == ' ')) {
        if (nl.indent() == indent) return arr;  // the next key of a mapping around an indentless sequence
        give_up();
      }
      line = n;
    }
  }

  // A scalar or flow sequence starting at `p` on `line`, inside a block at `indent`.
  json inline_value(std::size_t& line, std::size_t p, int indent, std::size_t depth) {
    char c = t_[p];
    count_node();
    add_mark(mark(line, p));
    if (c == '\'') return single_quoted(line, p, indent);
    if (c == '"') return double_quoted(line, p, indent);
    if (c == '|') return literal(line, p, indent);
    if (c == '[') return flow_sequence(line, p, depth);
    if (indicator(c) && !(c == '-' && at(p + 1) != ' ' && at(p + 1) != '\n')) give_up();
    return plain(line, p, indent);
  }

  void check_length(const std::string& s) const {
    if (s.size() > limits_.max_scalar_chars && utf8_length(s) > limits_.max_scalar_chars) give_up();
  }

  // The text of a plain scalar's line from `p`: up to a " #" comment, trailing spaces trimmed.
  std::string_view plain_segment(std::size_t line, std::size_t p) const {
    const Line& l = lines_[line];
    std::size_t e = p;
    for (std::size_t q = p; q < l.end; ++q) {
      if (t_[q] == '#' && q > p && t_[q - 1] == ' ') break;
      if (t_[q] != ' ') e = q + 1;
    }
    std::string_view s = t_.substr(p, e - p);
    // ": " or a final ':' would make it a key; the subset has no such text.
    if (s.find(": ") != std::string_view::npos || (!s.empty() && s.back() == ':')) give_up();
    return s;
  }

  bool has_comment(std::size_t line, std::size_t p) const {
    const Line& l = lines_[line];
    for (std::size_t q = p + 1; q < l.end; ++q)
      if (t_[q] == '#' && t_[q - 1] == ' ') return true;
    return false;
  }

  // Continuation lines of a multi-line plain or single-quoted scalar: more
  // indented than the block around it, and not a comment.
  bool continues(std::size_t i, int indent) const {
    return i < lines_.size() && !lines_[i].blank() && lines_[i].indent() > indent && !comment_line(lines_[i]);
  }

  json plain(std::size_t& line, std::size_t p, int indent) {
    std::string out(plain_segment(line, p));
    if (!has_comment(line, p)) {
      for (;;) {
        std::size_t n = line + 1, empty = 0;
        while (n < lines_.size() && lines_[n].blank()) ++n, ++empty;
        if (!continues(n, indent)) break;
        const Line& nl = lines_[n];
        if (t_[nl.first] == ':') give_up();
        std::string_view seg = plain_segment(n, nl.first);
        if (empty == 0) out += ' ';
        else out.append(empty, '\n');
        out.append(seg);
        line = n;
        if (has_comment(n, nl.first)) break;
      }
    }
    check_length(out);
    json v = resolve_plain_scalar(out);
    if (v.is_number_float() && !std::isfinite(v.get<double>())) give_up();
    return v;
  }

  json single_quoted(std::size_t& line, std::size_t p, int indent) {
    std::string out;
    std::size_t q = p + 1;
    for (;;) {
      const Line& l = lines_[line];
      std::size_t seg_start = out.size();
      while (q < l.end) {
        if (t_[q] == '\'') {
          if (q + 1 < l.end && t_[q + 1] == '\'') {
            out += '\'';
            q += 2;
            continue;
          }
          if (q == l.first && q > p) give_up();  // a last line with nothing before the quote: folds differently in yaml-cpp
          expect_line_end(line, q + 1);
          check_length(out);
          return out;
        }
        out += t_[q++];
      }
      // The line ends inside the quotes: fold. Trailing spaces go; each empty
      // line is a newline; a lone line break is a space.
      std::size_t keep = out.find_last_not_of(' ');
      out.resize(keep == std::string::npos || keep < seg_start ? seg_start : keep + 1);
      if (out.empty()) give_up();  // only white space before the first line break: see above
      std::size_t n = line + 1, empty = 0;
      while (n < lines_.size() && lines_[n].blank()) ++n, ++empty;
      if (!continues(n, indent)) give_up();
      if (empty == 0) out += ' ';
      else out.append(empty, '\n');
      line = n;
      q = lines_[n].first;
    }
  }

  // A double-quoted scalar, folded over lines like a single-quoted one; a
  // backslash at a line's end joins the lines with nothing between them.
  json double_quoted(std::size_t& line, std::size_t p, int indent) {
    std::string out;
    std::size_t q = p + 1;
    for (;;) {
      const Line& l = lines_[line];
      std::size_t keep = out.size();  // after the last character that is not a literal space
      bool joined = false;
      while (q < l.end) {
        char c = t_[q];
        if (c == '"') {
          if (q == l.first && q > p) give_up();  // a last line with nothing before the quote
          expect_line_end(line, q + 1);
          check_length(out);
          return out;
        }
        if (c != '\\') {
          out += c;
          ++q;
          if (c != ' ') keep = out.size();
          continue;
        }
        if (q + 1 == l.end) {
          joined = true;
          keep = out.size();
          break;
        }
        q = escape(line, q + 1, out);
        keep = out.size();
      }
      out.resize(keep);
      if (out.empty()) give_up();  // only white space before the first line break
      std::size_t n = line + 1, empty = 0;
      while (n < lines_.size() && lines_[n].blank()) ++n, ++empty;
      if (!continues(n, indent)) give_up();
      if (empty == 0 && !joined) out += ' ';
      else out.append(empty, '\n');
      line = n;
      q = lines_[n].first;
    }
  }

  // The escape whose letter is at `q`; appends what it stands for and returns
  // the position after it. Only the common escapes; the rest go to the general reader.
  std::size_t escape(std::size_t line, std::size_t q, std::string& out) const {
    const Line& l = lines_[line];
    char e = t_[q++];
    switch (e) {
      case '\\': out += '\\'; return q;
      case '"': out += '"'; return q;
      case '/': out += '/'; return q;
      case ' ': out += ' '; return q;
      case 'n': out += '\n'; return q;
      case 't': out += '\t'; return q;
      case 'r': out += '\r'; return q;
      case 'b': out += '\b'; return q;
      case 'f': out += '\f'; return q;
      case 'u': break;
      default: give_up();
    }
    if (q + 4 > l.end) give_up();
    std::uint32_t cp = 0;
    for (std::size_t k = 0; k < 4; ++k) {
      char h = t_[q + k];
      int d = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10 : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
      if (d < 0) give_up();
      cp = cp * 16 + static_cast<std::uint32_t>(d);
    }
    if (cp == 0 || (cp >= 0xD800 && cp <= 0xDFFF)) give_up();
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
    return q + 4;
  }

  // A literal block scalar: "|", "|-" or "|+" and its more-indented lines.
  json literal(std::size_t& line, std::size_t p, int indent) {
    char chomp = at(p + 1) == '-' || at(p + 1) == '+' ? t_[p + 1] : ' ';
    expect_line_end(line, p + (chomp == ' ' ? 1 : 2));
    // Content indentation: that of the first non-blank line, which must be deeper.
    std::size_t first = line + 1;
    while (first < lines_.size() && lines_[first].blank()) ++first;
    if (first == lines_.size() || lines_[first].indent() <= indent) give_up();  // empty: rare, and subtle
    int m = lines_[first].indent();
    for (std::size_t k = line + 1; k < first; ++k)
      if (lines_[k].end - lines_[k].start > static_cast<std::size_t>(m)) give_up();
    std::string out;
    std::size_t last = first, k = first;
    for (; k < lines_.size(); ++k) {
      const Line& c = lines_[k];
      if (!c.blank() && c.indent() < m) break;
      if (c.blank() && c.end - c.start > static_cast<std::size_t>(m)) give_up();  // spaces beyond the indentation
      if (!c.blank()) last = k;
    }
    if (lines_[last].end == t_.size()) give_up();  // no final line break
    for (std::size_t j = line + 1; j <= last; ++j) {
      const Line& c = lines_[j];
      if (!c.blank()) out.append(t_.substr(c.start + static_cast<std::size_t>(m), c.end - c.start - static_cast<std::size_t>(m)));
      out += '\n';
    }
    std::size_t trailing = 0;
    for (std::size_t j = last + 1; j < k; ++j) ++trailing;
    if (chomp == '-') out.pop_back();
    else if (chomp == '+') {
      if (trailing && lines_[k - 1].end == t_.size()) give_up();
      out.append(trailing, '\n');
    }
    check_length(out);
    line = chomp == '+' && trailing ? k - 1 : last;
    return out;
  }

  // "[a, 'b', "c"]" on one line: scalars only.
  json flow_sequence(std::size_t line, std::size_t p, std::size_t depth) {
    if (depth + 1 > limits_.max_depth) give_up();
    const Line& l = lines_[line];
    json arr = json::array();
    auto& items = arr.get_ref<json::array_t&>();
    std::size_t q = p + 1;
    auto skip = [&] { while (q < l.end && t_[q] == ' ') ++q; };
    skip();
    if (q < l.end && t_[q] == ']') return expect_line_end(line, q + 1), arr;
    for (;;) {
      skip();
      if (q >= l.end) give_up();
      if (items.size() >= limits_.max_items) give_up();
      count_node();
      Child child(*this, items.size());
      add_mark(mark(line, q));
      char c = t_[q];
      if (c == '\'' || c == '"') {
        std::string s;
        std::size_t close = one_line_quoted(line, q, s);
        if (close == std::string_view::npos) give_up();
        check_length(s);
        items.push_back(std::move(s));
        q = close + 1;
      } else {
        if (indicator(c) && !(c == '-' && at(q + 1) != ' ' && at(q + 1) != ',' && at(q + 1) != ']')) give_up();
        std::size_t r = q, e = q;
        for (; r < l.end && t_[r] != ',' && t_[r] != ']'; ++r) {
          char d = t_[r];
          if (d == '[' || d == '{' || d == '}' || d == ':' || d == '?' || (d == '#' && t_[r - 1] == ' ')) give_up();
          if (d != ' ') e = r + 1;
        }
        std::string s(t_.substr(q, e - q));
        check_length(s);
        json v = resolve_plain_scalar(s);
        if (v.is_number_float() && !std::isfinite(v.get<double>())) give_up();
        items.push_back(std::move(v));
        q = r;
      }
      skip();
      if (q >= l.end) give_up();
      if (t_[q] == ']') return expect_line_end(line, q + 1), arr;
      if (t_[q] != ',') give_up();
      ++q;
      skip();
      if (q >= l.end || t_[q] == ']' || t_[q] == ',') give_up();  // a trailing or doubled comma
    }
  }
};

}  // namespace

std::optional<YamlDocument> read(std::string_view text, const YamlLimits& limits) {
  YamlDocument doc;
  try {
    Reader reader(text, limits, doc);
    doc.value = reader.read_root();
  } catch (const GiveUp&) {
    return std::nullopt;
  }
  doc.marks.finish();
  return doc;
}

}  // namespace qsel::yaml_block
