#include "qsel/core/pattern.h"

#include <algorithm>

#include <re2/re2.h>
#include <re2/set.h>

namespace qsel {
namespace {

struct Token {
  enum Kind { Literal, Any, Capture } kind;
  std::string text;  // literal text or capture name
};

// Empty when a '{' is never closed.
std::vector<Token> tokens(std::string_view p) {
  std::vector<Token> out;
  std::string lit;
  auto flush = [&] {
    if (!lit.empty()) out.push_back({Token::Literal, lit});
    lit.clear();
  };
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (p[i] == '*') {
      flush();
      out.push_back({Token::Any, ""});
    } else if (p[i] == '{') {
      std::size_t close = p.find('}', i);
      if (close == std::string_view::npos) return {};
      flush();
      out.push_back({Token::Capture, std::string(p.substr(i + 1, close - i - 1))});
      i = close;
    } else {
      lit += p[i];
    }
  }
  flush();
  return out;
}

std::string shape_problem(std::string_view pattern) {
  if (pattern.empty()) return "empty pattern";
  int depth = 0;
  for (char c : pattern) {
    if (c == '{' && ++depth > 1) return "nested '{'";
    if (c == '}' && --depth < 0) return "'}' without '{'";
  }
  if (depth != 0) return "unclosed '{'";
  for (const auto& t : tokens(pattern))
    if (t.kind == Token::Literal) return "";
  return "a pattern needs some literal text";
}

// Bytes (a log line need not be UTF-8), '.' across any byte, no logging of errors;
// RE2's memory budget (8 MiB for one pattern; a set of a few hundred lazy patterns
// gets 64 MiB for its DFA).
RE2::Options byte_options(std::int64_t max_mem = 8 << 20) {
  RE2::Options options;
  options.set_encoding(RE2::Options::EncodingLatin1);
  options.set_dot_nl(true);
  options.set_log_errors(false);
  options.set_max_mem(max_mem);
  return options;
}

std::string trimmed(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\r')) s.remove_suffix(1);
  return std::string(s);
}

}  // namespace

std::optional<LogPattern> LogPattern::compile(std::string_view pattern, std::string* why) {
  if (std::string problem = shape_problem(pattern); !problem.empty()) {
    if (why) *why = problem;
    return std::nullopt;
  }
  // Between two literals, the wildcards and captures form one gap. The last capture
  // in a gap takes all of it ("{a}*" and "*{a}" capture the same text); a gap at the
  // end of the pattern runs to the end of the line.
  LogPattern out;
  out.text_ = std::string(pattern);
  std::string program;
  auto toks = tokens(pattern);
  for (std::size_t i = 0; i < toks.size();) {
    if (toks[i].kind == Token::Literal) {
      program += RE2::QuoteMeta(toks[i].text);
      out.min_length_ += toks[i].text.size();
      ++i;
      continue;
    }
    const Token* capture = nullptr;
    for (; i < toks.size() && toks[i].kind != Token::Literal; ++i)
      if (toks[i].kind == Token::Capture) capture = &toks[i];
    bool last = i == toks.size();
    if (capture) {
      program += last ? "(.*)" : "(.*?)";
      out.names_.push_back(capture->text);
    } else if (!last) {
      program += ".*?";
    }
  }
  auto re = std::make_shared<const RE2>(program, byte_options());
  if (!re->ok()) {
    if (why) *why = "RE2 cannot take it: " + re->error();
    return std::nullopt;
  }
  out.re_ = std::move(re);
  out.program_ = std::move(program);
  return out;
}

bool LogPattern::matches(std::string_view line) const { return RE2::PartialMatch(line, *re_); }

std::optional<std::map<std::string, std::string>> LogPattern::match(std::string_view line) const {
  std::map<std::string, std::string> caps;
  if (names_.empty()) {
    if (!matches(line)) return std::nullopt;
    return caps;
  }
  std::vector<re2::StringPiece> groups(names_.size() + 1);
  if (!re_->Match(line, 0, line.size(), RE2::UNANCHORED, groups.data(), static_cast<int>(groups.size()))) return std::nullopt;
  for (std::size_t i = 0; i < names_.size(); ++i)
    caps[names_[i]] = trimmed(std::string_view(groups[i + 1].data(), groups[i + 1].size()));
  return caps;
}

struct LogPatternSet::Impl {
  RE2::Set set{byte_options(64 << 20), RE2::UNANCHORED};
  bool compiled = false;
};

LogPatternSet::LogPatternSet() : impl_(std::make_unique<Impl>()) {}
LogPatternSet::~LogPatternSet() = default;

int LogPatternSet::add(const LogPattern& pattern) { return impl_->set.Add(pattern.program(), nullptr); }

bool LogPatternSet::compile() { return impl_->compiled = impl_->set.Compile(); }

bool LogPatternSet::match(std::string_view line, std::vector<int>& hits) const {
  hits.clear();
  if (!impl_->compiled) return false;
  RE2::Set::ErrorInfo error{};
  if (!impl_->set.Match(line, &hits, &error) && error.kind != RE2::Set::kNoError) return false;
  std::sort(hits.begin(), hits.end());
  return true;
}

std::optional<std::map<std::string, std::string>> match_pattern(std::string_view pattern, std::string_view line) {
  auto p = LogPattern::compile(pattern);
  if (!p) return std::nullopt;
  return p->match(line);
}

std::string pattern_problem(std::string_view pattern) {
  std::string why;
  return LogPattern::compile(pattern, &why) ? "" : why;
}

}  // namespace qsel
