// Numeric flags, checked the way issue 26 checked --memory-fraction: each is bound
// as the text typed, so an empty value, a zero or a negative zero reaches the check
// (CLI11's own conversion turned "" into 0, which silently meant the default). A
// bad value is one usage line, exit 2: `--FLAG: expected WHAT, got "TEXT"`, the
// text through quote_value.
#pragma once
#include <string>
#include <string_view>

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace qsel {

struct TypedNumber {
  std::string text;
  bool given = false;
};

// Adds `names` to `sub`, binding what is typed to `out`; `type` is the value's name in --help ("FLOAT", "INT").
CLI::Option* add_number(CLI::App& sub, const std::string& names, TypedNumber& out, const std::string& help, const std::string& type);

// The number typed, in [min, max]; a UsageError naming `flag` and what was expected otherwise.
// A sign is refused unless `min` is negative: "-0" is not a count of anything.
double number_flag(const TypedNumber& n, std::string_view flag, double min, double max, std::string_view expected);
long whole_number_flag(const TypedNumber& n, std::string_view flag, long min, long max, std::string_view expected);

}  // namespace qsel
