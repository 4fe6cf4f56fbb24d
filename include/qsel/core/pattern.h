// Log patterns from the corpus: literal text with '*' (any text) and '{name}'
// (any text, captured). A pattern matches anywhere in a line. Matching is a
// left-to-right series of substring searches — linear in the line, no regex,
// so a hostile log line cannot make it slow.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace qsel {

// The captures when `pattern` matches somewhere in `line` (empty map when it has
// none); nothing when it does not match.
std::optional<std::map<std::string, std::string>> match_pattern(std::string_view pattern, std::string_view line);

// A pattern's problem ("unclosed '{'"), or empty when it is well formed.
std::string pattern_problem(std::string_view pattern);

}  // namespace qsel
