#include "qsel/loader/yaml_reader.h"

#include <algorithm>
#include <cmath>
#include <charconv>
#include <cstdlib>
#include <vector>

#include <fmt/format.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/parser.h>

#include "qsel/core/text.h"
#include "yaml_block.h"
#include "yaml_strict.h"

namespace qsel {
using nlohmann::json;
namespace {

constexpr const char* kSyntax = "QS006";
constexpr const char* kMultiDoc = "QS007";
constexpr const char* kDupKey = "QS008";
constexpr const char* kAnchor = "QS009";
constexpr const char* kTooLarge = "QS010";
constexpr const char* kEncoding = "QS011";

// Thrown from the event handler to stop the parser at a fatal problem.
struct Stop {};

// Converts yaml-cpp's 0-based byte marks into 1-based character marks.
// Columns are counted from the last mark on the same line, so a long line with
// many nodes costs linear time, not quadratic (marks arrive in file order).
class MarkMap {
 public:
  explicit MarkMap(std::string_view text) : text_(text) {}
  Mark operator()(const YAML::Mark& m) const {
    if (m.pos < 0 || m.line < 0) return {};
    auto pos = static_cast<std::size_t>(m.pos);
    if (pos > text_.size()) pos = text_.size();
    std::size_t start = pos >= static_cast<std::size_t>(m.column) ? pos - static_cast<std::size_t>(m.column) : 0;
    std::size_t from = start, chars = 0;
    if (m.line == line_ && pos >= pos_ && pos_ >= start) {
      from = pos_;
      chars = chars_;
    }
    chars += utf8_length(text_.substr(from, pos - from));
    line_ = m.line;
    pos_ = pos;
    chars_ = chars;
    return {m.line + 1, static_cast<int>(chars) + 1};
  }
 private:
  std::string_view text_;
  mutable int line_ = -1;
  mutable std::size_t pos_ = 0, chars_ = 0;
};

// Builds one document bottom-up; frames hold the containers being filled.
class Builder : public YAML::EventHandler {
 public:
  Builder(const MarkMap& marks, const std::string& file, const YamlLimits& limits, YamlDocument& out,
          yaml_strict::Checker& strict)
      : to_mark_(marks), file_(file), limits_(limits), out_(out), strict_(strict) {}

  Mark doc_start;
  int documents = 0;

  void OnDocumentStart(const YAML::Mark& m) override { ++documents; doc_start = to_mark_(m); }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& m, YAML::anchor_t a) override { check_anchor(m, a); add(json(), m); }
  void OnAlias(const YAML::Mark& m, YAML::anchor_t) override {
    fail(m, kAnchor, "aliases (*name) are not allowed in record files; write the value out");
    add(json(), m);
  }
  void OnScalar(const YAML::Mark& m, const std::string& tag, YAML::anchor_t a, const std::string& v) override {
    check_anchor(m, a);
    if (utf8_length(v) > limits_.max_scalar_chars)
      fatal(m, kSyntax, fmt::format("scalar is {} characters long; the limit is {}", utf8_length(v), limits_.max_scalar_chars));
    strict_.scalar(offset(m), place());
    add(scalar(m, tag, v), m, &v);
  }
  void OnSequenceStart(const YAML::Mark& m, const std::string& tag, YAML::anchor_t a, YAML::EmitterStyle::value style) override {
    check_anchor(m, a);
    check_collection_tag(m, tag, "seq");
    open(json::array(), m, style == YAML::EmitterStyle::Flow);
  }
  void OnSequenceEnd() override { close(); }
  void OnMapStart(const YAML::Mark& m, const std::string& tag, YAML::anchor_t a, YAML::EmitterStyle::value style) override {
    check_anchor(m, a);
    check_collection_tag(m, tag, "map");
    open(json::object(), m, style == YAML::EmitterStyle::Flow);
  }
  void OnMapEnd() override { close(); }

  json root;

 private:
  struct Frame {
    json value;
    std::string pointer;
    bool expecting_key = true;  // maps only
    std::string key;
    Mark key_mark;
    bool skip_value = false;    // the value of a duplicate key is dropped
    bool flow = false;          // [...] or {...}
    int block_column = -1;      // of this block collection, or of the nearest one around this flow one
  };

  void problem(const YAML::Mark& m, const char* code, std::string msg) {
    out_.problems.push_back({code, file_, to_mark_(m), "", std::move(msg)});
  }
  void fail(const YAML::Mark& m, const char* code, std::string msg) { problem(m, code, std::move(msg)); }
  [[noreturn]] void fatal(const YAML::Mark& m, const char* code, std::string msg) {
    problem(m, code, std::move(msg));
    throw Stop{};
  }

  void check_anchor(const YAML::Mark& m, YAML::anchor_t a) {
    if (a != YAML::NullAnchor) fail(m, kAnchor, "anchors (&name) are not allowed in record files; write the value out");
  }
  void check_collection_tag(const YAML::Mark& m, const std::string& tag, const char* kind) {
    if (tag.empty() || tag == "?" || tag == "!" || tag == std::string("tag:yaml.org,2002:") + kind) return;
    fail(m, kSyntax, fmt::format("unsupported tag {}", quote_value(tag)));
  }

  json scalar(const YAML::Mark& m, const std::string& tag, const std::string& v) {
    if (tag == "?") {
      json r = resolve_plain_scalar(v);
      if (r.is_number_float() && !std::isfinite(r.get<double>()))
        fail(m, kSyntax, fmt::format("{} is not a finite number; records have no use for it", quote_value(v)));
      return r;
    }
    if (tag == "!" || tag == "tag:yaml.org,2002:str") return v;
    static const std::string core = "tag:yaml.org,2002:";
    if (tag.rfind(core, 0) == 0) {
      std::string t = tag.substr(core.size());
      json r = resolve_plain_scalar(v);
      bool fits = (t == "int" && r.is_number_integer()) || (t == "float" && r.is_number()) ||
                  (t == "bool" && r.is_boolean()) || (t == "null" && r.is_null());
      if (fits) return t == "float" ? json(r.get<double>()) : r;
      fail(m, kSyntax, fmt::format("{} is not a valid !!{}", quote_value(v), t));
      return v;
    }
    fail(m, kSyntax, fmt::format("unsupported tag {}", quote_value(tag)));
    return v;
  }

  // Adds a finished value to the frame on top (or makes it the root).
  void add(json value, const YAML::Mark& m, const std::string* scalar_text = nullptr) {
    if (++nodes_ > limits_.max_nodes)
      fatal(m, kSyntax, fmt::format("more than {} nodes; a record file is far smaller", limits_.max_nodes));
    if (stack_.empty()) {
      out_.marks.set_value("", to_mark_(m));
      root = std::move(value);
      return;
    }
    Frame& f = stack_.back();
    if (f.value.is_object() && f.expecting_key) {
      take_key(f, value, m, scalar_text);
      return;
    }
    check_items(f, m);
    store(f, std::move(value), to_mark_(m));
  }

  // A list longer than any record needs: refused before the schema's
  // uniqueItems (quadratic in the list's length) ever sees it.
  void check_items(const Frame& f, const YAML::Mark& m) {
    if (f.value.is_array() && f.value.size() >= limits_.max_items)
      fatal(m, kSyntax, fmt::format("a list of more than {} items; a record has no use for one this long", limits_.max_items));
  }

  void take_key(Frame& f, const json& key, const YAML::Mark& m, const std::string* text) {
    if (!text || key.is_null()) {
      fail(m, kSyntax, key.is_null() ? "empty or null mapping key" : "mapping keys must be plain scalars");
    }
    f.key = text ? *text : "";
    f.key_mark = to_mark_(m);
    f.expecting_key = false;
    f.skip_value = f.value.contains(f.key);
    if (f.skip_value) {
      Mark first = out_.marks.key(pointer_child(f.pointer, f.key)).value_or(Mark{});
      fail(m, kDupKey, fmt::format("duplicate key {} (first defined at line {})", quote_value(f.key), first.line));
    }
  }

  void store(Frame& f, json value, Mark mark) {
    if (f.value.is_array()) {
      out_.marks.append(pointer_child(f.pointer, std::to_string(f.value.size())), mark, {});
      f.value.push_back(std::move(value));
      return;
    }
    f.expecting_key = true;
    if (f.skip_value) return;
    std::string ptr = pointer_child(f.pointer, f.key);
    out_.marks.append(ptr, mark, f.key_mark);  // each value is stored once
    f.value[f.key] = std::move(value);
  }

  std::string child_pointer() const {
    if (stack_.empty()) return "";
    const Frame& f = stack_.back();
    if (f.value.is_array()) return pointer_child(f.pointer, std::to_string(f.value.size()));
    return pointer_child(f.pointer, f.key);
  }

  static std::size_t offset(const YAML::Mark& m) { return m.pos < 0 ? std::string_view::npos : static_cast<std::size_t>(m.pos); }

  // Where the next node sits, for the strictness checks.
  yaml_strict::Place place() const {
    if (stack_.empty()) return {};
    const Frame& f = stack_.back();
    return {f.block_column, f.flow, !f.flow && f.value.is_object() && f.expecting_key};
  }

  void open(json container, const YAML::Mark& m, bool flow) {
    if (!stack_.empty() && stack_.back().value.is_object() && stack_.back().expecting_key)
      fatal(m, kSyntax, "mapping keys must be plain scalars");
    if (stack_.size() >= limits_.max_depth)
      fatal(m, kSyntax, fmt::format("nesting deeper than {} levels", limits_.max_depth));
    if (++nodes_ > limits_.max_nodes)
      fatal(m, kSyntax, fmt::format("more than {} nodes; a record file is far smaller", limits_.max_nodes));
    if (!stack_.empty()) check_items(stack_.back(), m);
    Frame f{std::move(container), child_pointer()};
    yaml_strict::Place at = place();
    f.flow = flow;
    f.block_column = flow ? at.block_column : strict_.block_column(offset(m), m.column);
    if (flow) strict_.flow_collection(offset(m), at);
    starts_.push_back(to_mark_(m));
    stack_.push_back(std::move(f));
  }

  void close() {
    Frame f = std::move(stack_.back());
    stack_.pop_back();
    Mark mark = starts_.back();
    starts_.pop_back();
    if (stack_.empty()) {
      out_.marks.set_value("", mark);
      root = std::move(f.value);
      return;
    }
    store(stack_.back(), std::move(f.value), mark);
  }

  const MarkMap& to_mark_;
  const std::string& file_;
  const YamlLimits& limits_;
  YamlDocument& out_;
  yaml_strict::Checker& strict_;
  std::vector<Frame> stack_;
  std::vector<Mark> starts_;
  std::size_t nodes_ = 0;
};

// Sees only whether a second document starts, and where.
class DocumentProbe : public YAML::EventHandler {
 public:
  explicit DocumentProbe(const MarkMap& marks) : to_mark_(marks) {}
  Mark start;
  void OnDocumentStart(const YAML::Mark& m) override { start = to_mark_(m); }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}
 private:
  const MarkMap& to_mark_;
};

// yaml-cpp's messages are terse and sometimes misleading; say what was expected.
std::string reword(const std::string& msg) {
  if (msg == "bad file" || msg.find("deep recursion") != std::string::npos)
    return "nesting too deep to be a record";
  if (msg.find("unknown escape character") != std::string::npos)
    return "invalid escape sequence in a double-quoted string";
  return "invalid YAML: " + msg;
}

Mark byte_mark(std::string_view text, std::size_t pos) {
  int line = 1;
  std::size_t start = 0;
  for (std::size_t i = 0; i < pos; ++i)
    if (text[i] == '\n') { ++line; start = i + 1; }
  return {line, static_cast<int>(utf8_length(text.substr(start, pos - start))) + 1};
}

// What yaml-cpp let through and YAML 1.2 does not allow, located in one pass
// over the text (issues come sorted by offset).
void add_strict_issues(std::string_view text, const std::string& file, const yaml_strict::Checker& strict,
                       YamlDocument& doc) {
  int line = 1;
  std::size_t pos = 0, line_start = 0;
  for (const yaml_strict::Issue& issue : strict.issues()) {
    std::size_t target = std::min(issue.pos, text.size());
    for (; pos < target; ++pos)
      if (text[pos] == '\n') ++line, line_start = pos + 1;
    Mark mark{line, static_cast<int>(utf8_length(text.substr(line_start, target - line_start))) + 1};
    doc.problems.push_back({kSyntax, file, mark, "", issue.message});
  }
}

bool precheck(std::string_view text, const std::string& file, const YamlLimits& limits, YamlDocument& doc) {
  if (text.size() > limits.max_bytes) {
    doc.problems.push_back(too_large(file, text.size(), limits));
    return false;
  }
  if (auto bad = find_invalid_utf8(text); bad != std::string_view::npos) {
    doc.problems.push_back({kEncoding, file, byte_mark(text, bad), "",
        fmt::format("invalid UTF-8 (byte 0x{:02X}); record files must be UTF-8", static_cast<unsigned char>(text[bad]))});
    return false;
  }
  if (auto nul = text.find('\0'); nul != std::string_view::npos) {
    doc.problems.push_back({kEncoding, file, byte_mark(text, nul), "", "NUL byte in text; record files must be plain UTF-8 text"});
    return false;
  }
  return true;
}

}  // namespace

namespace {

bool digits(std::string_view s, int base) {
  if (s.empty()) return false;
  for (char c : s) {
    bool ok = base == 16 ? std::isxdigit(static_cast<unsigned char>(c)) != 0 : c >= '0' && c < static_cast<char>('0' + base);
    if (!ok) return false;
  }
  return true;
}

// YAML 1.2 core schema float: [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?
bool core_float(std::string_view s, bool* negative_exponent) {
  std::size_t i = 0;
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
  std::size_t int_digits = 0, frac_digits = 0;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i, ++int_digits;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i, ++frac_digits;
  }
  if (int_digits == 0 && frac_digits == 0) return false;
  *negative_exponent = false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) *negative_exponent = s[i++] == '-';
    std::size_t exp_digits = 0;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i, ++exp_digits;
    if (exp_digits == 0) return false;
  }
  return i == s.size();
}

}  // namespace

// The YAML 1.2 core schema's resolution of a plain scalar, written out by hand
// (no regular expressions: linear, and no exceptions on huge numbers — a value
// beyond the double range becomes ±inf, which the reader then reports located).
json resolve_plain_scalar(const std::string& s) {
  if (s.size() > 64) return s;  // no number or keyword is that long
  if (s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL") return nullptr;
  if (s == "true" || s == "True" || s == "TRUE") return true;
  if (s == "false" || s == "False" || s == "FALSE") return false;
  std::string_view v = s;
  bool sign = !v.empty() && (v[0] == '-' || v[0] == '+');
  bool negative = sign && v[0] == '-';
  std::string_view body = sign ? v.substr(1) : v;
  auto whole = [&](std::string_view d, int base) -> json {
    long long x = 0;
    auto [ptr, ec] = std::from_chars(d.data(), d.data() + d.size(), x, base);
    if (ec == std::errc() && ptr == d.data() + d.size()) return negative ? -x : x;
    if (base != 10) return negative ? -HUGE_VAL : HUGE_VAL;  // an octal or hex literal beyond 64 bits
    return std::strtod(s.c_str(), nullptr);                    // a decimal one: the nearest double
  };
  if (digits(body, 10)) return whole(body, 10);
  if (!sign && v.size() > 2 && v.substr(0, 2) == "0o" && digits(v.substr(2), 8)) return whole(v.substr(2), 8);
  if (!sign && v.size() > 2 && v.substr(0, 2) == "0x" && digits(v.substr(2), 16)) return whole(v.substr(2), 16);
  bool negative_exponent = false;
  if (core_float(v, &negative_exponent)) {
    double d = 0;
    auto [ptr, ec] = std::from_chars(body.data(), body.data() + body.size(), d);
    if (ec == std::errc::result_out_of_range) d = negative_exponent ? 0.0 : HUGE_VAL;
    else if (ec != std::errc() || ptr != body.data() + body.size()) return s;
    return negative ? -d : d;
  }
  if (body == ".inf" || body == ".Inf" || body == ".INF") return negative ? -HUGE_VAL : HUGE_VAL;
  if (!sign && (v == ".nan" || v == ".NaN" || v == ".NAN")) return std::nan("");
  return s;
}

Problem too_large(const std::string& file, std::size_t bytes, const YamlLimits& limits) {
  return {kTooLarge, file, {}, "", fmt::format("file is {} bytes; a record file may be at most {} bytes", bytes, limits.max_bytes)};
}

YamlDocument read_yaml(std::string_view text, const std::string& file, const YamlLimits& limits) {
  YamlDocument doc;
  if (!precheck(text, file, limits, doc)) return doc;
  if (auto fast = yaml_block::read(text, limits)) return std::move(*fast);
  return read_yaml_general(text, file, limits);
}

YamlDocument read_yaml_general(std::string_view text, const std::string& file, const YamlLimits& limits) {
  YamlDocument doc;
  if (!precheck(text, file, limits, doc)) return doc;
  MarkMap marks(text);
  std::string copy(text);
  std::istringstream in(copy);
  yaml_strict::Checker strict(text);
  strict.document_prefix();
  Builder builder(marks, file, limits, doc, strict);
  try {
    YAML::Parser parser(in);
    if (!parser.HandleNextDocument(builder)) {
      doc.problems.push_back({kSyntax, file, {1, 1}, "", "empty file: expected one record (a YAML mapping)"});
      add_strict_issues(text, file, strict, doc);
      return doc;
    }
    DocumentProbe probe(marks);
    if (parser.HandleNextDocument(probe))
      doc.problems.push_back({kMultiDoc, file, probe.start, "",
                              "more than one YAML document; a record file holds exactly one record"});
  } catch (const Stop&) {
  } catch (const YAML::Exception& e) {
    doc.problems.push_back({kSyntax, file, marks(e.mark), "", reword(e.msg)});
  } catch (const std::exception& e) {
    doc.problems.push_back({kSyntax, file, {}, "", fmt::format("could not read YAML: {}", e.what())});
  }
  add_strict_issues(text, file, strict, doc);
  doc.marks.finish();
  doc.value = doc.problems.empty() || builder.root.is_object() ? std::move(builder.root) : nlohmann::json();
  return doc;
}

}  // namespace qsel
