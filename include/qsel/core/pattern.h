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
  const std::string& program() const { return program_; }  // the RE2 program it compiled to
  std::size_t min_length() const { return min_length_; }     // a shorter line cannot match (its literals' bytes)

 private:
  std::string text_, program_;
  std::size_t min_length_ = 0;
  std::shared_ptr<const re2::RE2> re_;
  std::vector<std::string> names_;  // one per RE2 group, in order
};

// Many patterns matched against a line in one pass (an RE2::Set): which of them
// match, so a line none matches costs one scan however many patterns there are.
class LogPatternSet {
 public:
  LogPatternSet();
  ~LogPatternSet();
  LogPatternSet(const LogPatternSet&) = delete;
  LogPatternSet& operator=(const LogPatternSet&) = delete;

  // Adds a compiled pattern; returns its index in match()'s answers.
  int add(const LogPattern& pattern);
  // After the last add(). False when RE2 cannot build the set (match() then answers nothing).
  bool compile();
  // The indices of the patterns that match somewhere in `line`, ascending, into `hits`
  // (cleared first). False when the set could not decide (its DFA ran out of memory):
  // the caller then tries each pattern on its own.
  bool match(std::string_view line, std::vector<int>& hits) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// One-off forms of the same (they compile each call): the captures when `pattern`
// matches somewhere in `line`; nothing when it does not, or does not compile.
std::optional<std::map<std::string, std::string>> match_pattern(std::string_view pattern, std::string_view line);

// A pattern's problem ("unclosed '{'"), or empty when it is well formed and compiles.
std::string pattern_problem(std::string_view pattern);

}  // namespace qsel
