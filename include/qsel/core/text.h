// Small text utilities shared by the loader, the graph and the reports.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace qsel {

// One character of UTF-8 text: the code point and byte length of the valid
// sequence at a byte offset, or (valid = false) the single byte there. The one
// UTF-8 decoder: validation, escaping, display widths and roff all walk text
// with it.
struct Utf8Char {
  char32_t code_point = 0;  // the byte's value when not valid
  std::size_t length = 1;
  bool valid = false;
};
Utf8Char utf8_at(std::string_view text, std::size_t offset);

// Byte offset of the first invalid UTF-8 sequence, or npos when the text is valid.
std::size_t find_invalid_utf8(std::string_view text);

// `text` with every byte that is not part of a valid UTF-8 sequence replaced by U+FFFD.
std::string valid_utf8(std::string_view text);

// Number of characters (code points) in a valid UTF-8 string.
std::size_t utf8_length(std::string_view text);

// Edit distance over bytes (insert, delete, substitute, swap two neighbours).
std::size_t edit_distance(std::string_view a, std::string_view b);

// Nearest candidates to `word` by edit distance, closest first; only those within
// a distance that makes a suggestion useful (about a third of the word).
std::vector<std::string> nearest(std::string_view word, const std::vector<std::string>& candidates,
                                 std::size_t max_results = 3);

// Fails with a UsageError unless `value` is one of `allowed` (an empty list allows
// anything): "unknown WHAT "x"; did you mean "y"?", or the list when nothing is near.
void require_one_of(const std::string& value, const std::vector<std::string>& allowed, const std::string& what);

// `text` quoted for a message: "value", truncated past 60 characters.
std::string quote_value(std::string_view text);

// One line for stderr at most `max_bytes` long (plus the marker): a longer one keeps
// its start and its end around "…[N bytes]…", cut on character boundaries, so an
// error or a log line never echoes 100 KB of what a stranger typed, and still ends
// with what went wrong. The last line of defence: messages quote values with quote_value.
inline constexpr std::size_t kMaxMessageBytes = 2000;
std::string capped_line(std::string_view line, std::size_t max_bytes = kMaxMessageBytes);

std::string to_lower(std::string_view text);

// `text` without leading and trailing white space (isspace).
std::string_view trim(std::string_view text);

// `text` safe to print on a terminal: control characters (C0 other than tab,
// DEL, C1), bidirectional controls (U+061C, U+200E/F, U+202A-E, U+2066-9) and
// bytes that are not valid UTF-8 become \xNN, so data from a file can never move
// the cursor, change colours, rewrite a line or reorder what follows it.
std::string printable(std::string_view text);
// The same, keeping line breaks ("\n") for renderers that indent each line.
std::string printable_lines(std::string_view text);

// Lower-case hex SHA-256 of `data`.
std::string sha256_hex(std::string_view data);

// RFC 3986: unreserved characters and '/' kept, every other byte percent-encoded
// (a path in a file:// or https:// URL).
std::string uri_encode(std::string_view path);

// The deepest bracket nesting of JSON text, outside strings. A parser that
// recurses per level is only handed text whose depth was checked first.
int json_nesting(std::string_view text);
// The limit for JSON read from strangers (config.json, an index, a Hub file
// list): real files nest a handful of levels.
inline constexpr int kMaxJsonNesting = 64;

// SHA-256 fed piece by piece (the corpus digest hashes every file in order
// without holding them all in one buffer); hex() gives sha256_hex() of the
// concatenation and ends the hash.
class Sha256 {
 public:
  void update(std::string_view data);
  std::string hex();

 private:
  std::uint32_t h_[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  unsigned char block_[64] = {};
  std::size_t used_ = 0;
  std::uint64_t total_ = 0;
};

}  // namespace qsel
