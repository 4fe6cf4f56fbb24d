#include "qsel/core/pattern.h"

#include <vector>

namespace qsel {
namespace {

struct Token {
  enum Kind { Literal, Any, Capture } kind;
  std::string text;  // literal text or capture name
};

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

std::string trimmed(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\r')) s.remove_suffix(1);
  return std::string(s);
}

}  // namespace

std::string pattern_problem(std::string_view pattern) {
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

std::optional<std::map<std::string, std::string>> match_pattern(std::string_view pattern, std::string_view line) {
  auto toks = tokens(pattern);
  if (toks.empty()) return std::nullopt;
  std::map<std::string, std::string> caps;
  std::size_t pos = 0;
  const Token* pending = nullptr;  // a capture waiting for the next literal to end it
  bool anchored = false;           // the previous token fixed where the next literal must start
  for (std::size_t i = 0; i < toks.size(); ++i) {
    const Token& t = toks[i];
    if (t.kind == Token::Any) {
      anchored = false;
      continue;
    }
    if (t.kind == Token::Capture) {
      pending = &t;
      anchored = false;
      continue;
    }
    std::size_t at = line.find(t.text, pos);
    if (at == std::string_view::npos) return std::nullopt;
    if (anchored && at != pos) {
      // A literal right after a literal: they are one literal (tokens() merges them), so this cannot happen.
      return std::nullopt;
    }
    if (pending) {
      caps[pending->text] = trimmed(line.substr(pos, at - pos));
      pending = nullptr;
    }
    pos = at + t.text.size();
    anchored = true;
  }
  if (pending) caps[pending->text] = trimmed(line.substr(pos));
  return caps;
}

}  // namespace qsel
