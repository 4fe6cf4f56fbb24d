// One HTTP GET through libcurl, the way a command-line tool on a stranger's
// network must do it: redirects followed (bounded), proxies taken from the
// environment (http_proxy, https_proxy, no_proxy — libcurl's own reading),
// a connect timeout, a minimum speed over the stall window (a server trickling
// a byte a second is as stalled as a silent one), the TLS handshake under the
// same window, a byte cap on every body and on the headers, and retries with
// backoff on 429 and 5xx that honour Retry-After — all inside one deadline a
// caller may set for everything it asks. Credentials (a bearer token, or the
// user and password of a URL) go to the first host only (libcurl drops them on
// a redirect to another host) and are never logged; a URL is only ever shown
// without them (net/url.h). Redirects may lead to any http(s) host, internal
// addresses included, as curl's do: qsel sends GETs without credentials there
// and reads the answers with the same caps (docs/reliability.md). Errors are
// UsageErrors naming the URL and what went wrong.
#pragma once
#include <chrono>
#include <cstdint>
#include <exception>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace qsel {

struct HttpRequest {
  std::string url;
  // Bytes [first, last] (inclusive), sent as "Range: bytes=first-last".
  std::optional<std::pair<std::uint64_t, std::uint64_t>> range;
  std::string if_none_match;  // an ETag: a 304 answer means "unchanged"
  std::string if_range;       // an ETag: the Range applies only if the file still has it (else a 200 with the whole file)
  std::string bearer;         // HF_TOKEN; never printed
  std::string user, password; // HTTP basic credentials (a URL's user:password@); used when there is no bearer; never printed
  std::size_t max_bytes = 16 << 20;  // the body cap; more is an error (or, for a range answered with 200, the prefix kept)
};

struct HttpResponse {
  long status = 0;
  std::string body;
  std::map<std::string, std::string> headers;  // of the last hop, names lower-case
  std::string url;                             // where the body came from, after redirects (without credentials)
  bool ranged = false;                         // the server honoured the Range (206)
  std::uint64_t total_size = 0;                // from Content-Range or Content-Length; 0 when unknown

  std::string header(const std::string& lower_name) const;
};

struct HttpOptions {
  long connect_timeout_s = 10;  // the TCP connection (HF_HUB_ETAG_TIMEOUT)
  long stall_timeout_s = 10;    // the stall window (HF_HUB_DOWNLOAD_TIMEOUT): less than min_bytes_per_s over it,
                                // or a TLS handshake without progress for it, ends the transfer
  long min_bytes_per_s = 1024;
  long total_timeout_s = 120;   // one attempt
  int max_redirects = 8;
  int attempts = 4;             // 1 + retries on 429, 5xx and a body cut short
  long max_retry_after_s = 30;  // Retry-After waits for one answer, all retries together; more is reported, not waited for
  // Every attempt and every wait between them ends by then: a caller asking several
  // things sets one deadline for all of them. deadline_s names it in messages.
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
  long deadline_s = 0;
  // Called about ten times a second while a request runs longer than a second
  // (bytes so far, bytes expected or 0), and once with done = true.
  std::function<void(std::uint64_t, std::uint64_t, bool done)> progress;
};

// The response for any HTTP status (callers decide what 401 or 404 mean);
// throws UsageError for what is not an answer: no connection, a timeout, a
// redirect loop, a body over the cap, a body cut short after every retry, a
// header value (a validator, a credential) holding a line break.
HttpResponse http_get(const HttpRequest& request, const HttpOptions& options);

// One request of http_get_many: its response, or the error http_get would have thrown for it.
struct HttpResult {
  std::optional<HttpResponse> response;
  std::exception_ptr error;
};

// Requests finished of all, and body bytes received so far by all of them;
// called after each request ends and about ten times a second in between.
using HttpManyProgress = std::function<void(std::size_t done, std::size_t total, std::uint64_t bytes)>;

// Several GETs at once over libcurl's multi interface: at most `connections`
// transfers in flight (and connections open), HTTP/2 multiplexed where a TLS
// server offers it. Each request is what http_get makes of it — the same caps,
// stall window, redirects, credential rule, retries and Retry-After waits
// (counted per request) — and every one ends inside options.deadline, waits
// included. options.progress is not called; `progress` is. The results are in
// the order of `requests` whatever order the answers came in; one request's
// error does not stop the others.
std::vector<HttpResult> http_get_many(const std::vector<HttpRequest>& requests, const HttpOptions& options, std::size_t connections = 8,
                                      const HttpManyProgress& progress = {});

}  // namespace qsel
