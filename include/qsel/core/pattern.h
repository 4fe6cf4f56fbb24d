// Log patterns from the corpus: literal text with '*' (any text) and '{name}'
// (any text, captured). A pattern matches anywhere in a line: its literals in
// order, each at its first place after the one before. A pattern compiles once to
// an RE2 program over bytes (literals quoted, '*' and '{name}' lazy), so a match
// is linear in the line whatever a hostile log holds.
#pragma once
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace re2 { class RE2; }

namespace qsel {

class LogPattern {
 public:
  // The compiled pattern, or nothing with the reason in `why` (pattern_problem's
  // words, or what RE2 said of the program it was turned into).
  static std::optional<LogPattern> compile(std::string_view pattern, std::string* why = nullptr);

  // Whether it matches somewhere in `line`.
  bool matches(std::string_view line) const;
  // The captures (trimmed of spaces and a trailing '\r') when it matches; nothing when it does not.
  std::optional<std::map<std::string, std::string>> match(std::string_view line) const;

  const std::string& text() const { return text_; }

 private:
  std::string text_;
  std::shared_ptr<const re2::RE2> re_;
  std::vector<std::string> names_;  // one per RE2 group, in order
};

// One-off forms of the same (they compile each call): the captures when `pattern`
// matches somewhere in `line`; nothing when it does not, or does not compile.
std::optional<std::map<std::string, std::string>> match_pattern(std::string_view pattern, std::string_view line);

// A pattern's problem ("unclosed '{'"), or empty when it is well formed and compiles.
std::string pattern_problem(std::string_view pattern);

}  // namespace qsel
