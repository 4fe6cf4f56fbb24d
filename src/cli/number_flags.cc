#include "number_flags.h"

#include <charconv>
#include <cmath>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "qsel/core/errors.h"
#include "qsel/core/text.h"

namespace qsel {
namespace {

[[noreturn]] void refuse(const TypedNumber& n, std::string_view flag, std::string_view expected) {
  throw UsageError(fmt::format("{}: expected {}, got {}", flag, expected, quote_value(n.text)));
}

// The typed text without the spaces around it, when a sign is allowed or absent.
std::string_view digits_of(const TypedNumber& n, bool signed_ok) {
  std::string_view t = trim(n.text);
  if (t.empty() || t.size() > 32 || (!signed_ok && (t.front() == '-' || t.front() == '+'))) return {};
  return t;
}

}  // namespace

CLI::Option* add_number(CLI::App& sub, const std::string& names, TypedNumber& out, const std::string& help, const std::string& type) {
  return sub.add_option(names, out.text, help)->type_name(type)->each([&out](const std::string&) { out.given = true; });
}

double number_flag(const TypedNumber& n, std::string_view flag, double min, double max, std::string_view expected) {
  std::string_view t = digits_of(n, min < 0);
  double v = 0;
  auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (t.empty() || ec != std::errc() || end != t.data() + t.size() || !std::isfinite(v) || v < min || v > max) refuse(n, flag, expected);
  return v;
}

long whole_number_flag(const TypedNumber& n, std::string_view flag, long min, long max, std::string_view expected) {
  std::string_view t = digits_of(n, min < 0);
  long v = 0;
  auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (t.empty() || ec != std::errc() || end != t.data() + t.size() || v < min || v > max) refuse(n, flag, expected);
  return v;
}

}  // namespace qsel
