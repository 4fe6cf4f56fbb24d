// One HTTP GET through libcurl, the way a command-line tool on a stranger's
// network must do it: redirects followed (bounded), proxies taken from the
// environment (http_proxy, https_proxy, no_proxy — libcurl's own reading),
// connect and stall timeouts, a byte cap on every body, and retries with
// backoff on 429 and 5xx that honour Retry-After. A bearer token is sent to
// the first host only (libcurl drops it on a redirect to another host) and is
// never logged. Errors are UsageErrors naming the URL and what went wrong.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>

namespace qsel {

struct HttpRequest {
  std::string url;
  // Bytes [first, last] (inclusive), sent as "Range: bytes=first-last".
  std::optional<std::pair<std::uint64_t, std::uint64_t>> range;
  std::string if_none_match;  // an ETag: a 304 answer means "unchanged"
  std::string bearer;         // HF_TOKEN; never printed
  std::size_t max_bytes = 16 << 20;  // the body cap; more is an error (or, for a range answered with 200, the prefix kept)
};

struct HttpResponse {
  long status = 0;
  std::string body;
  std::map<std::string, std::string> headers;  // of the last hop, names lower-case
  std::string url;                             // where the body came from, after redirects
  bool ranged = false;                         // the server honoured the Range (206)
  std::uint64_t total_size = 0;                // from Content-Range or Content-Length; 0 when unknown

  std::string header(const std::string& lower_name) const;
};

struct HttpOptions {
  long connect_timeout_s = 10;
  long stall_timeout_s = 10;    // no byte for this long ends the transfer (HF_HUB_DOWNLOAD_TIMEOUT)
  long total_timeout_s = 120;
  int max_redirects = 8;
  int attempts = 4;             // 1 + retries on 429, 5xx and a body cut short
  long max_retry_after_s = 30;  // a longer Retry-After is reported, not waited for
  // Called about ten times a second while a request runs longer than a second
  // (bytes so far, bytes expected or 0), and once with done = true.
  std::function<void(std::uint64_t, std::uint64_t, bool done)> progress;
};

// The response for any HTTP status (callers decide what 401 or 404 mean);
// throws UsageError for what is not an answer: no connection, a timeout, a
// redirect loop, a body over the cap, a body cut short after every retry.
HttpResponse http_get(const HttpRequest& request, const HttpOptions& options);

// "host" of an http(s) URL, lower-case; empty when it is not one.
std::string url_host(const std::string& url);

}  // namespace qsel
