// Small readers the detection parsers share: lines, trimming, fields, and a
// checked number from a tool's text (never a throw, never a huge value).
#pragma once
#include <cctype>
#include <charconv>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "qsel/core/text.h"

namespace qsel::detect_text {

constexpr std::size_t kMaxLines = 4096;  // no tool lists more GPUs than this; the rest is ignored

using qsel::trim;  // core/text.h

inline std::vector<std::string_view> lines(std::string_view text) {
  std::vector<std::string_view> out;
  while (!text.empty() && out.size() < kMaxLines) {
    std::size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    out.push_back(line);
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
  return out;
}

inline std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  for (;;) {
    std::size_t p = s.find(sep);
    out.push_back(trim(s.substr(0, p)));
    if (p == std::string_view::npos || out.size() >= 256) break;
    s.remove_prefix(p + 1);
  }
  return out;
}

// A decimal number at the start of `s` (after spaces), with what follows in *rest.
inline std::optional<double> leading_number(std::string_view s, std::string_view* rest = nullptr) {
  s = trim(s);
  double v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || ptr == s.data() || !(v >= 0) || v > 1e15) return std::nullopt;
  if (rest) *rest = trim(std::string_view(ptr, static_cast<std::size_t>(s.data() + s.size() - ptr)));
  return v;
}

inline bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

inline std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// The value after the first ':' of a "Key: value" line; nothing when there is no ':'.
inline std::optional<std::string_view> value_after_colon(std::string_view line) {
  std::size_t p = line.find(':');
  if (p == std::string_view::npos) return std::nullopt;
  return trim(line.substr(p + 1));
}

}  // namespace qsel::detect_text
