// A regular expression matcher whose time is linear in the text: the subset of
// ECMAScript patterns that JSON Schema `pattern` keywords use (anchors, literals,
// escapes, classes, groups, alternation, ?, *, +, {n,m}), run as a Pike VM over
// UTF-8 code points. Look-around, back-references and word boundaries are not
// supported: compile() says so, and the caller keeps its general engine for that
// pattern. std::regex backtracks (and recurses) and is slow on every string;
// this matcher touches each character once per live state.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace qsel {

class LinearRegex {
 public:
  // The compiled pattern, or why it cannot be compiled ("look-around is not
  // supported", "unclosed '['") in `why`.
  static std::optional<LinearRegex> compile(std::string_view pattern, std::string* why = nullptr);

  // True when the pattern matches somewhere in `text` (std::regex_search).
  bool search(std::string_view text) const;

  std::size_t size() const { return program_.size(); }

  // Each program is limited to this many instructions ({n,m} copies its operand).
  static constexpr std::size_t kMaxProgram = 20000;

  struct Range {
    char32_t lo, hi;
  };
  struct Inst {
    enum Op : std::uint8_t { Class, Split, Jump, Begin, End, Match } op;
    std::uint32_t x = 0, y = 0;  // Class: index into classes_; Split: both targets; Jump: x
  };
  struct CharClass {
    std::vector<Range> ranges;
    bool negated = false;
    std::uint64_t ascii[2] = {0, 0};  // the answer for code points below 128, filled in by finish()
    void finish();
    bool contains(char32_t c) const {
      return c < 128 ? (ascii[c >> 6] >> (c & 63)) & 1 : slow_contains(c);
    }
    bool slow_contains(char32_t c) const;
  };

 private:
  std::vector<Inst> program_;
  std::vector<CharClass> classes_;
  friend class RegexCompiler;
};

}  // namespace qsel
