#include "qsel/core/text.h"

#include <algorithm>
#include <cctype>
#include <cstdint>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "qsel/core/errors.h"

namespace qsel {

Utf8Char utf8_at(std::string_view s, std::size_t i) {
  auto c = static_cast<unsigned char>(s[i]);
  Utf8Char out{c, 1, c < 0x80};
  std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
  if (n <= 1 || i + n > s.size()) return out;
  std::uint32_t cp = c & (0x7F >> n);
  for (std::size_t k = 1; k < n; ++k) {
    auto cc = static_cast<unsigned char>(s[i + k]);
    if ((cc & 0xC0) != 0x80) return out;
    cp = (cp << 6) | (cc & 0x3F);
  }
  bool overlong = (n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000);
  if (overlong || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return out;
  return {static_cast<char32_t>(cp), n, true};
}

std::size_t find_invalid_utf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    if (static_cast<unsigned char>(s[i]) < 0x80) {  // the common case, without the call
      ++i;
      continue;
    }
    Utf8Char ch = utf8_at(s, i);
    if (!ch.valid) return i;
    i += ch.length;
  }
  return std::string_view::npos;
}

std::size_t utf8_length(std::string_view s) {
  return static_cast<std::size_t>(
      std::count_if(s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

// Optimal string alignment: Levenshtein plus adjacent transpositions ("lsit" -> "list" is 1).
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

std::vector<std::string> nearest(std::string_view word, const std::vector<std::string>& candidates,
                                 std::size_t max_results) {
  // Suggestions are for typos in names: a word far longer than any name gets none, and
  // the edit distance (quadratic) is only computed where the lengths leave it a chance.
  constexpr std::size_t kMaxWord = 64;
  if (word.size() > kMaxWord) return {};
  std::size_t limit = std::max<std::size_t>(2, word.size() / 3);
  std::vector<std::pair<std::size_t, std::string>> scored;
  for (const auto& c : candidates) {
    // A candidate that contains the word (or the reverse) is a good suggestion too.
    bool contains = word.size() >= 3 && (c.find(word) != std::string::npos || word.find(c) != std::string_view::npos);
    std::size_t gap = c.size() > word.size() ? c.size() - word.size() : word.size() - c.size();
    if (gap > limit && !contains) continue;  // the distance is at least the length gap
    std::size_t d = edit_distance(word, c);
    if (d <= limit || contains) scored.emplace_back(contains ? std::min(d, limit) : d, c);
  }
  std::sort(scored.begin(), scored.end());
  std::vector<std::string> out;
  for (auto& [d, c] : scored) {
    if (out.size() == max_results) break;
    if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
  }
  return out;
}

std::string quote_value(std::string_view text) {
  std::string t(text.substr(0, 60));
  if (text.size() > 60) {
    while (!t.empty() && (static_cast<unsigned char>(t.back()) & 0xC0) == 0x80) t.pop_back();
    if (!t.empty() && static_cast<unsigned char>(t.back()) >= 0xC0) t.pop_back();
    t += "…";
  }
  std::string out = "\"";
  for (char c : printable(t)) {
    if (c == '"') out += "\\\"";
    else out += c;
  }
  return out + "\"";
}

std::string capped_line(std::string_view line, std::size_t max_bytes) {
  if (line.size() <= max_bytes) return std::string(line);
  auto boundary = [&](std::size_t at) {  // back to the start of the character at `at`
    while (at > 0 && at < line.size() && (static_cast<unsigned char>(line[at]) & 0xC0) == 0x80) --at;
    return at;
  };
  std::size_t head = boundary(max_bytes * 2 / 3), tail = boundary(line.size() - max_bytes / 3);
  return fmt::format("{}…[{} bytes]…{}", line.substr(0, head), tail - head, line.substr(tail));
}

std::string to_lower(std::string_view text) {
  std::string out(text);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

namespace {
constexpr std::uint32_t kK[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

std::uint32_t rotr(std::uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

void compress(std::uint32_t h[8], const unsigned char* block) {
  std::uint32_t w[64];
  for (int i = 0; i < 16; ++i)
    w[i] = (std::uint32_t(block[4 * i]) << 24) | (std::uint32_t(block[4 * i + 1]) << 16) |
           (std::uint32_t(block[4 * i + 2]) << 8) | std::uint32_t(block[4 * i + 3]);
  for (int i = 16; i < 64; ++i) {
    std::uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
    std::uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
    w[i] = w[i - 16] + s0 + w[i - 7] + s1;
  }
  std::uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];
  for (int i = 0; i < 64; ++i) {
    std::uint32_t t1 = k + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + kK[i] + w[i];
    std::uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
    k = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
  }
  h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += k;
}
}  // namespace

void Sha256::update(std::string_view data) {
  total_ += data.size();
  while (!data.empty()) {
    std::size_t take = std::min(data.size(), sizeof block_ - used_);
    std::copy_n(data.data(), take, block_ + used_);
    used_ += take;
    data.remove_prefix(take);
    if (used_ == sizeof block_) {
      compress(h_, block_);
      used_ = 0;
    }
  }
}

std::string Sha256::hex() {
  std::uint64_t bits = total_ * 8;
  block_[used_++] = 0x80;
  if (used_ > 56) {
    std::fill(block_ + used_, block_ + 64, 0);
    compress(h_, block_);
    used_ = 0;
  }
  std::fill(block_ + used_, block_ + 56, 0);
  for (int i = 0; i < 8; ++i) block_[56 + i] = static_cast<unsigned char>(bits >> (8 * (7 - i)));
  compress(h_, block_);
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (auto v : h_)
    for (int i = 28; i >= 0; i -= 4) out.push_back(digits[(v >> i) & 0xF]);
  return out;
}

std::string sha256_hex(std::string_view data) {
  Sha256 s;
  s.update(data);
  return s.hex();
}

namespace {

std::string escaped(std::string_view text, bool keep_newlines) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  out.reserve(text.size());
  auto escape = [&](unsigned char c) {
    if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else if (c == 0x1b) out += "\\x1b";
    else {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  };
  std::size_t i = 0;
  while (i < text.size()) {
    auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      if ((c < 0x20 && c != '\t' && !(keep_newlines && c == '\n')) || c == 0x7f) escape(c);
      else out += static_cast<char>(c);
      ++i;
      continue;
    }
    Utf8Char ch = utf8_at(text, i);
    if (!ch.valid) {
      escape(c);
      ++i;
      continue;
    }
    char32_t cp = ch.code_point;
    bool c1 = cp >= 0x80 && cp <= 0x9F;  // C1 controls
    // Bidirectional controls reorder what follows them on screen ("Trojan Source"):
    // ALM, LRM, RLM, the embeddings and overrides, and the isolates.
    bool bidi = cp == 0x061C || cp == 0x200E || cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
    if (c1 || bidi) {
      for (std::size_t k = 0; k < ch.length; ++k) escape(static_cast<unsigned char>(text[i + k]));
    } else {
      out.append(text.substr(i, ch.length));
    }
    i += ch.length;
  }
  return out;
}

}  // namespace

std::string printable(std::string_view text) { return escaped(text, false); }

std::string valid_utf8(std::string_view text) {
  if (find_invalid_utf8(text) == std::string::npos) return std::string(text);
  std::string out;
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t bad = find_invalid_utf8(text.substr(i));
    if (bad == std::string::npos) {
      out.append(text.substr(i));
      break;
    }
    out.append(text.substr(i, bad));
    out += "\xEF\xBF\xBD";
    i += bad + 1;
  }
  return out;
}
std::string printable_lines(std::string_view text) { return escaped(text, true); }

void require_one_of(const std::string& value, const std::vector<std::string>& allowed, const std::string& what) {
  if (allowed.empty() || std::find(allowed.begin(), allowed.end(), value) != allowed.end()) return;
  auto near = nearest(to_lower(value), allowed, 1);
  throw UsageError(fmt::format("unknown {} {}; {}", what, quote_value(value),
                               near.empty() ? fmt::format("use one of {}", fmt::join(allowed, ", "))
                                            : fmt::format("did you mean \"{}\"?", near[0])));
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::string uri_encode(std::string_view path) {
  std::string out;
  for (unsigned char c : path) {
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~' || c == '/') out += static_cast<char>(c);
    else out += fmt::format("%{:02X}", c);
  }
  return out;
}

int json_nesting(std::string_view s) {
  int depth = 0, max = 0;
  bool in_string = false, escaped = false;
  for (char c : s) {
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    else if (c == '{' || c == '[') max = std::max(max, ++depth);
    else if (c == '}' || c == ']') --depth;
  }
  return max;
}

}  // namespace qsel
