#include "qsel/net/http.h"

#include <curl/curl.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <thread>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "qsel/core/errors.h"
#include "qsel/core/text.h"

namespace qsel {
namespace {

using Clock = std::chrono::steady_clock;


void init_once() {
  static const bool done = [] { return curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK; }();
  if (!done) throw UsageError("cannot initialise libcurl");
}

struct Transfer {
  const HttpRequest* request = nullptr;
  const HttpOptions* options = nullptr;
  CURL* curl = nullptr;
  HttpResponse response;
  std::uint64_t keep = 0;          // for a range answered with 200: bytes to keep from the start
  bool over_cap = false, kept_prefix = false;
  Clock::time_point started = Clock::now();
  bool reported = false;
};

long status_of(CURL* c) {
  long code = 0;
  curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code);
  return code;
}

std::size_t on_header(char* data, std::size_t size, std::size_t n, void* user) {
  auto* t = static_cast<Transfer*>(user);
  std::string_view line(data, size * n);
  if (line.starts_with("HTTP/")) t->response.headers.clear();  // a new hop
  if (auto colon = line.find(':'); colon != std::string_view::npos && colon > 0) {
    std::string name = to_lower(std::string(line.substr(0, colon)));
    std::string value(trim(line.substr(colon + 1)));
    if (name.size() <= 100 && value.size() <= 8192 && t->response.headers.size() < 200) t->response.headers[name] = value;
  }
  return size * n;
}

std::size_t on_body(char* data, std::size_t size, std::size_t n, void* user) {
  auto* t = static_cast<Transfer*>(user);
  std::size_t len = size * n;
  std::string& body = t->response.body;
  if (t->request->range && status_of(t->curl) == 200) {  // the Range was ignored: keep the prefix that holds it
    t->keep = t->request->range->second + 1;
    if (t->keep > t->request->max_bytes) {
      t->over_cap = true;
      return 0;
    }
    std::size_t take = static_cast<std::size_t>(std::min<std::uint64_t>(len, t->keep - body.size()));
    body.append(data, take);
    if (body.size() >= t->keep) {
      t->kept_prefix = true;
      return 0;  // stop the transfer: the rest of the file is not wanted
    }
    return len;
  }
  if (body.size() + len > t->request->max_bytes) {
    t->over_cap = true;
    return 0;
  }
  body.append(data, len);
  return len;
}

int on_progress(void* user, curl_off_t total, curl_off_t now, curl_off_t, curl_off_t) {
  auto* t = static_cast<Transfer*>(user);
  if (!t->options->progress || Clock::now() - t->started < std::chrono::seconds(1)) return 0;
  t->reported = true;
  t->options->progress(static_cast<std::uint64_t>(std::max<curl_off_t>(now, 0)), static_cast<std::uint64_t>(std::max<curl_off_t>(total, 0)),
                       false);
  return 0;
}

// Retry-After as seconds or an HTTP date; -1 when absent or unreadable.
long retry_after_s(const HttpResponse& r) {
  std::string v = r.header("retry-after");
  if (v.empty()) return -1;
  if (std::all_of(v.begin(), v.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return v.size() > 6 ? 999999 : std::stol(v);
  time_t when = curl_getdate(v.c_str(), nullptr);
  if (when < 0) return -1;
  long delta = static_cast<long>(when - time(nullptr));
  return std::max(0L, delta);
}

std::uint64_t total_size_of(const HttpResponse& r) {
  auto number = [](std::string_view s) -> std::uint64_t {
    s = trim(s);
    if (s.empty() || s.size() > 19) return 0;
    std::uint64_t v = 0;
    for (char c : s) {
      if (c < '0' || c > '9') return 0;
      v = v * 10 + static_cast<std::uint64_t>(c - '0');
    }
    return v;
  };
  if (std::string cr = r.header("content-range"); !cr.empty())  // "bytes 0-99/12345"
    if (auto slash = cr.rfind('/'); slash != std::string::npos) return number(std::string_view(cr).substr(slash + 1));
  if (r.status == 200) return number(r.header("content-length"));
  return 0;
}

struct CurlDeleter {
  void operator()(CURL* c) const { curl_easy_cleanup(c); }
};

// One attempt. Returns the curl result; the response is in `t`.
CURLcode attempt(const HttpRequest& rq, const HttpOptions& o, Transfer& t) {
  std::unique_ptr<CURL, CurlDeleter> curl(curl_easy_init());
  if (!curl) throw UsageError("cannot initialise libcurl");
  CURL* c = curl.get();
  t.curl = c;
  curl_easy_setopt(c, CURLOPT_URL, rq.url.c_str());
  curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
  curl_easy_setopt(c, CURLOPT_MAXREDIRS, static_cast<long>(o.max_redirects));
  curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, o.connect_timeout_s);
  curl_easy_setopt(c, CURLOPT_TIMEOUT, o.total_timeout_s);
  curl_easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, 1L);
  curl_easy_setopt(c, CURLOPT_LOW_SPEED_TIME, o.stall_timeout_s);
  curl_easy_setopt(c, CURLOPT_USERAGENT, "qsel/" QSEL_VERSION " (libcurl)");
  curl_easy_setopt(c, CURLOPT_ACCEPT_ENCODING, "");  // gzip where the server offers it (JSON listings)
  curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(c, CURLOPT_HEADERDATA, &t);
  curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(c, CURLOPT_WRITEDATA, &t);
  curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
  curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, on_progress);
  curl_easy_setopt(c, CURLOPT_XFERINFODATA, &t);
  std::string range;
  if (rq.range) {
    range = fmt::format("{}-{}", rq.range->first, rq.range->second);
    curl_easy_setopt(c, CURLOPT_RANGE, range.c_str());
  } else {
    curl_easy_setopt(c, CURLOPT_MAXFILESIZE_LARGE, static_cast<curl_off_t>(rq.max_bytes));
  }
  if (!rq.bearer.empty()) {  // credentials, not a raw header: libcurl sends them to the first host only
    curl_easy_setopt(c, CURLOPT_HTTPAUTH, CURLAUTH_BEARER);
    curl_easy_setopt(c, CURLOPT_XOAUTH2_BEARER, rq.bearer.c_str());
  }
  struct curl_slist* headers = nullptr;
  if (!rq.if_none_match.empty()) headers = curl_slist_append(headers, ("If-None-Match: " + rq.if_none_match).c_str());
  curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers);
  CURLcode rc = curl_easy_perform(c);
  curl_slist_free_all(headers);
  t.response.status = status_of(c);
  char* where = nullptr;
  if (curl_easy_getinfo(c, CURLINFO_EFFECTIVE_URL, &where) == CURLE_OK && where) t.response.url = where;
  t.curl = nullptr;
  return rc;
}

bool retryable_status(long s) { return s == 429 || s == 500 || s == 502 || s == 503 || s == 504; }
bool retryable_error(CURLcode rc) { return rc == CURLE_PARTIAL_FILE || rc == CURLE_RECV_ERROR || rc == CURLE_GOT_NOTHING; }

}  // namespace

std::string HttpResponse::header(const std::string& lower_name) const {
  auto it = headers.find(lower_name);
  return it == headers.end() ? std::string() : it->second;
}

std::string url_host(const std::string& url) {
  std::string_view u(url);
  for (std::string_view scheme : {"https://", "http://"}) {
    if (!u.starts_with(scheme)) continue;
    u.remove_prefix(scheme.size());
    std::size_t end = u.find_first_of("/?#");
    std::string_view authority = u.substr(0, end);
    if (auto at = authority.rfind('@'); at != std::string_view::npos) authority.remove_prefix(at + 1);
    return to_lower(std::string(authority));
  }
  return "";
}

HttpResponse http_get(const HttpRequest& rq, const HttpOptions& o) {
  init_once();
  for (int n = 1;; ++n) {
    Transfer t;
    t.request = &rq;
    t.options = &o;
    CURLcode rc = attempt(rq, o, t);
    if (t.reported && o.progress) o.progress(t.response.body.size(), 0, true);
    HttpResponse& r = t.response;
    if (t.over_cap)
      throw UsageError(fmt::format("{}: the answer is larger than the {} bytes qsel reads from it", rq.url, rq.max_bytes));
    if (t.kept_prefix) {  // a server that ignored the Range: the prefix is what was asked for
      r.body.erase(0, static_cast<std::size_t>(rq.range->first));
      r.total_size = total_size_of(r);
      spdlog::debug("http: {} ignored the Range; kept the first {} bytes", rq.url, t.keep);
      return std::move(r);
    }
    bool last = n >= o.attempts;
    if (rc == CURLE_OK && retryable_status(r.status) && !last) {
      long wait = retry_after_s(r);
      if (wait > o.max_retry_after_s)
        throw UsageError(fmt::format("{}: HTTP {}: the server asks to retry after {} s; try again later", rq.url, r.status, wait));
      long backoff_ms = wait >= 0 ? wait * 1000 : 500L << (n - 1);
      spdlog::info("http: {} answered {}; retrying in {} ms (attempt {} of {})", rq.url, r.status, backoff_ms, n + 1, o.attempts);
      std::this_thread::sleep_for(std::chrono::milliseconds(backoff_ms));
      continue;
    }
    if (retryable_error(rc) && !last) {
      spdlog::info("http: {}: {}; retrying (attempt {} of {})", rq.url, curl_easy_strerror(rc), n + 1, o.attempts);
      std::this_thread::sleep_for(std::chrono::milliseconds(500L << (n - 1)));
      continue;
    }
    switch (rc) {
      case CURLE_OK:
        break;
      case CURLE_OPERATION_TIMEDOUT:
        throw UsageError(fmt::format("{}: no answer in time (connect {} s, stalled {} s, total {} s)", rq.url, o.connect_timeout_s,
                                     o.stall_timeout_s, o.total_timeout_s));
      case CURLE_TOO_MANY_REDIRECTS:
        throw UsageError(fmt::format("{}: more than {} redirects (a redirect loop?)", rq.url, o.max_redirects));
      case CURLE_FILESIZE_EXCEEDED:
        throw UsageError(fmt::format("{}: the answer is larger than the {} bytes qsel reads from it", rq.url, rq.max_bytes));
      case CURLE_PARTIAL_FILE:
      case CURLE_RECV_ERROR:
      case CURLE_GOT_NOTHING:
        throw UsageError(fmt::format("{}: the answer stopped early after {} attempts ({})", rq.url, n, curl_easy_strerror(rc)));
      default:
        throw UsageError(fmt::format("{}: {}", rq.url, curl_easy_strerror(rc)));
    }
    r.ranged = r.status == 206;
    r.total_size = total_size_of(r);
    spdlog::debug("http: GET {}{} -> {} ({} bytes)", rq.url, rq.range ? fmt::format(" [{}-{}]", rq.range->first, rq.range->second) : "",
                  r.status, r.body.size());
    return std::move(r);
  }
}

}  // namespace qsel
