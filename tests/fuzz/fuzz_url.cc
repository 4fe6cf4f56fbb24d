// libFuzzer harness: URLs from strangers (HF_ENDPOINT, --model, a redirect) through
// net/url.h. Whatever the text, a URL as shown carries no credentials, the origin a
// cache keys by carries none either, and nothing throws.
#include <cstddef>
#include <cstdint>
#include <string>

#include "qsel/net/url.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  auto u = qsel::parse_url(text);
  std::string shown = qsel::redact_url(text);
  if (u) {
    if (shown != u->shown) __builtin_trap();
    auto again = qsel::parse_url(shown);
    if (!again || !again->user.empty() || !again->password.empty()) __builtin_trap();  // shown with a credential
    if (again->host != u->host || again->port != u->port || again->scheme != u->scheme) __builtin_trap();
    std::string origin = qsel::url_origin(text);  // a path may hold '@'; the origin never a credential
    auto keyed = qsel::parse_url(origin);
    if (origin.empty() || (keyed && (!keyed->user.empty() || !keyed->password.empty()))) __builtin_trap();
    if (!qsel::same_origin(text, shown)) __builtin_trap();
  }
  (void)qsel::url_host(text);
  return 0;
}
