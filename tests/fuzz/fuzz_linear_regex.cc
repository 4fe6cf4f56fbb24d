// libFuzzer harness: the linear matcher with a fuzzed pattern and text (the
// first byte splits the input). Every run checks it neither crashes nor slows;
// with QSEL_FUZZ_DIFFERENTIAL=1 in the environment it also aborts when it
// disagrees with std::regex on a short ASCII pattern and text both accept.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <regex>
#include <string>
#include <string_view>

#include "qsel/core/linear_regex.h"

namespace {

bool ascii(std::string_view s) {
  for (char c : s)
    if (static_cast<unsigned char>(c) >= 0x80 || static_cast<unsigned char>(c) < 0x20) return false;
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const bool differential = std::getenv("QSEL_FUZZ_DIFFERENTIAL") != nullptr;
  if (size == 0) return 0;
  std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  std::size_t cut = data[0] % (rest.size() + 1);
  std::string_view pattern = rest.substr(0, cut), text = rest.substr(cut);
  auto re = qsel::LinearRegex::compile(pattern);
  if (!re) return 0;
  bool found = re->search(text);
  if (!differential || pattern.size() > 12 || text.size() > 16 || !ascii(pattern) || !ascii(text)) return 0;
  // Where libstdc++ leaves ECMAScript, the linear matcher keeps to it: std::regex
  // over char cuts \uHHHH to its low byte ("\uA333" matches '3'), and reads the
  // POSIX "[.x.]", "[=x=]" and "[:alpha:]" inside a class.
  for (std::string_view quirk : {"\\u", "\\x", "[.", "[=", "[:"})
    if (pattern.find(quirk) != std::string_view::npos) return 0;
  try {
    std::regex general{std::string(pattern), std::regex::ECMAScript};
    if (std::regex_search(std::string(text), general) != found) std::abort();
  } catch (const std::regex_error&) {  // std::regex refuses what the linear one reads: not a disagreement
  }
  return 0;
}
