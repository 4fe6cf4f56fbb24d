#include "qsel/net/http.h"

#include <curl/curl.h>
#include <sys/socket.h>

#include <algorithm>
#include <chrono>
#include <deque>
#include <memory>
#include <thread>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "qsel/core/errors.h"
#include "qsel/core/text.h"
#include "qsel/net/url.h"

namespace qsel {
namespace {

using Clock = std::chrono::steady_clock;

constexpr std::size_t kMaxHeaderBytes = 64 << 10;  // one hop's headers: real answers send a few KiB

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
  std::size_t header_bytes = 0;    // of this hop
  bool header_flood = false;
  curl_socket_t socket = CURL_SOCKET_BAD;  // the latest connection's socket (CURLOPT_SOCKOPTFUNCTION)
  bool connected = false;          // the request went out on a connection (after any TLS handshake): CURLOPT_PREREQFUNCTION
  Clock::time_point handshake_since = Clock::time_point::max();
  bool handshake_stalled = false;
  char error[CURL_ERROR_SIZE] = {};
};

long status_of(CURL* c) {
  long code = 0;
  curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code);
  return code;
}

std::size_t on_header(char* data, std::size_t size, std::size_t n, void* user) {
  auto* t = static_cast<Transfer*>(user);
  std::string_view line(data, size * n);
  if (line.starts_with("HTTP/")) {  // a new hop
    t->response.headers.clear();
    t->header_bytes = 0;
  }
  t->header_bytes += line.size();
  if (t->header_bytes > kMaxHeaderBytes) {
    t->header_flood = true;
    return 0;
  }
  if ((line == "\r\n" || line == "\n") && status_of(t->curl) / 100 == 3) {  // a redirect: the next hop may connect anew
    t->connected = false;
    t->socket = CURL_SOCKET_BAD;
    t->handshake_since = Clock::time_point::max();
  }
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

int on_prereq(void* user, char*, char*, int, int) {
  static_cast<Transfer*>(user)->connected = true;
  return CURL_PREREQFUNC_OK;
}

int on_socket(void* user, curl_socket_t fd, curlsocktype) {
  static_cast<Transfer*>(user)->socket = fd;
  return CURL_SOCKOPT_OK;
}

// Between the TCP connection and the request (a TLS handshake, a proxy's tunnel)
// libcurl's speed limit does not apply, and its connect timeout (HF_HUB_ETAG_TIMEOUT)
// covers both: that wait gets the stall window. The TCP connection is made once the
// socket has a peer; the request goes out once libcurl calls CURLOPT_PREREQFUNCTION.
bool handshake_stalled(Transfer& t) {
  if (t.connected || t.socket == CURL_SOCKET_BAD) return false;
  sockaddr_storage peer{};
  socklen_t len = sizeof peer;
  if (::getpeername(t.socket, reinterpret_cast<sockaddr*>(&peer), &len) != 0) return false;  // still connecting
  auto now = Clock::now();
  if (t.handshake_since == Clock::time_point::max()) t.handshake_since = now;
  return now - t.handshake_since > std::chrono::seconds(t.options->stall_timeout_s);
}

int on_progress(void* user, curl_off_t total, curl_off_t now, curl_off_t, curl_off_t) {
  auto* t = static_cast<Transfer*>(user);
  if (handshake_stalled(*t)) {
    t->handshake_stalled = true;
    return 1;
  }
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

struct SlistDeleter {
  void operator()(curl_slist* l) const { curl_slist_free_all(l); }
};

// A header value qsel sends: a line break or a NUL in it would start a header of the server's choosing.
void check_header_value(const std::string& shown, const char* name, const std::string& value) {
  if (value.find_first_of(std::string_view("\r\n\0", 3)) != std::string::npos)
    throw UsageError(fmt::format("{}: the {} value holds a line break; not sending it", shown, name));
}

long ms_left(const HttpOptions& o) {
  if (o.deadline == Clock::time_point::max()) return o.total_timeout_s * 1000;
  return std::chrono::duration_cast<std::chrono::milliseconds>(o.deadline - Clock::now()).count();
}

// One attempt's easy handle, with what it points at: the transfer its callbacks
// fill, the Range text and the header list. Held by pointer: libcurl keeps
// pointers into it until the handle is cleaned up.
struct Attempt {
  std::unique_ptr<CURL, CurlDeleter> curl;
  std::unique_ptr<curl_slist, SlistDeleter> headers;
  std::string range;
  Transfer t;
};

// The easy handle for one attempt, set up but not started.
std::unique_ptr<Attempt> start_attempt(const HttpRequest& rq, const HttpOptions& o, long timeout_ms) {
  auto a = std::make_unique<Attempt>();
  a->curl.reset(curl_easy_init());
  if (!a->curl) throw UsageError("cannot initialise libcurl");
  CURL* c = a->curl.get();
  Transfer& t = a->t;
  t.request = &rq;
  t.options = &o;
  t.curl = c;
  curl_easy_setopt(c, CURLOPT_URL, rq.url.c_str());
  curl_easy_setopt(c, CURLOPT_ERRORBUFFER, t.error);
  curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
  curl_easy_setopt(c, CURLOPT_MAXREDIRS, static_cast<long>(o.max_redirects));
  curl_easy_setopt(c, CURLOPT_HTTP_VERSION, static_cast<long>(CURL_HTTP_VERSION_2TLS));  // HTTP/2 where a TLS server offers it
  curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, o.connect_timeout_s);
  curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, timeout_ms);
  curl_easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, o.min_bytes_per_s);
  curl_easy_setopt(c, CURLOPT_LOW_SPEED_TIME, o.stall_timeout_s);
  curl_easy_setopt(c, CURLOPT_USERAGENT, "qsel/" QSEL_VERSION " (libcurl)");
  curl_easy_setopt(c, CURLOPT_ACCEPT_ENCODING, "");  // gzip where the server offers it (JSON listings)
  curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(c, CURLOPT_HEADERDATA, &t);
  curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(c, CURLOPT_WRITEDATA, &t);
  curl_easy_setopt(c, CURLOPT_PREREQFUNCTION, on_prereq);
  curl_easy_setopt(c, CURLOPT_PREREQDATA, &t);
  curl_easy_setopt(c, CURLOPT_SOCKOPTFUNCTION, on_socket);
  curl_easy_setopt(c, CURLOPT_SOCKOPTDATA, &t);
  curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
  curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, on_progress);
  curl_easy_setopt(c, CURLOPT_XFERINFODATA, &t);
  if (rq.range) {
    a->range = fmt::format("{}-{}", rq.range->first, rq.range->second);
    curl_easy_setopt(c, CURLOPT_RANGE, a->range.c_str());
  } else {
    curl_easy_setopt(c, CURLOPT_MAXFILESIZE_LARGE, static_cast<curl_off_t>(rq.max_bytes));
  }
  // Credentials, never a raw header: libcurl sends them to the first host only.
  if (!rq.bearer.empty()) {
    curl_easy_setopt(c, CURLOPT_HTTPAUTH, CURLAUTH_BEARER);
    curl_easy_setopt(c, CURLOPT_XOAUTH2_BEARER, rq.bearer.c_str());
  } else if (!rq.user.empty() || !rq.password.empty()) {
    curl_easy_setopt(c, CURLOPT_HTTPAUTH, CURLAUTH_BASIC);
    curl_easy_setopt(c, CURLOPT_USERNAME, rq.user.c_str());
    curl_easy_setopt(c, CURLOPT_PASSWORD, rq.password.c_str());
  }
  curl_slist* list = nullptr;
  if (!rq.if_none_match.empty()) list = curl_slist_append(list, ("If-None-Match: " + rq.if_none_match).c_str());
  if (!rq.if_range.empty()) list = curl_slist_append(list, ("If-Range: " + rq.if_range).c_str());
  a->headers.reset(list);
  curl_easy_setopt(c, CURLOPT_HTTPHEADER, a->headers.get());
  return a;
}

// After the transfer: the status and where the body came from.
void end_attempt(Attempt& a) {
  a.t.response.status = status_of(a.curl.get());
  char* where = nullptr;
  if (curl_easy_getinfo(a.curl.get(), CURLINFO_EFFECTIVE_URL, &where) == CURLE_OK && where) a.t.response.url = redact_url(where);
  a.t.curl = nullptr;
}

bool retryable_status(long s) { return s == 429 || s == 500 || s == 502 || s == 503 || s == 504; }

// A connection cut while the answer arrived; not a flood of headers (libcurl names that a receive error too).
bool retryable_error(CURLcode rc, const Transfer& t) {
  if (t.header_flood || std::string_view(t.error).find("header") != std::string_view::npos) return false;
  return rc == CURLE_PARTIAL_FILE || rc == CURLE_RECV_ERROR || rc == CURLE_GOT_NOTHING;
}

std::string time_left_words(const HttpOptions& o) {
  return fmt::format("{} s left of the {} s qsel gives one command on the network", std::max(0L, ms_left(o) / 1000), o.deadline_s);
}

// What a failed attempt was, in words: which limit ended it, or what the server sent.
[[noreturn]] void fail(CURLcode rc, const Transfer& t, const std::string& shown, const HttpRequest& rq, const HttpOptions& o, int n,
                       bool deadline_bound) {
  std::string_view why(t.error);
  if (t.header_flood || why.starts_with("Too large response headers"))
    throw UsageError(fmt::format("{}: the answer has more header bytes than qsel reads ({} KiB): not an answer qsel reads", shown,
                                 kMaxHeaderBytes >> 10));
  if (t.handshake_stalled)
    throw UsageError(fmt::format("{}: no answer in time: the TLS handshake (or a proxy's tunnel) made no progress for {} s "
                                 "(HF_HUB_DOWNLOAD_TIMEOUT)",
                                 shown, o.stall_timeout_s));
  switch (rc) {
    case CURLE_OPERATION_TIMEDOUT:
      if (why.starts_with("Operation too slow"))
        throw UsageError(fmt::format("{}: no answer in time: the server sent less than {} bytes a second for {} s (HF_HUB_DOWNLOAD_TIMEOUT)",
                                     shown, o.min_bytes_per_s, o.stall_timeout_s));
      if (why.find("onnect") != std::string_view::npos || why.starts_with("Resolving"))
        throw UsageError(fmt::format("{}: no answer in time: no connection within {} s (HF_HUB_ETAG_TIMEOUT)", shown, o.connect_timeout_s));
      if (deadline_bound)
        throw UsageError(fmt::format("{}: no answer in time: the {} s qsel gives one command on the network ran out", shown, o.deadline_s));
      throw UsageError(fmt::format("{}: no answer in time: a request may take {} s", shown, o.total_timeout_s));
    case CURLE_TOO_MANY_REDIRECTS:
      throw UsageError(fmt::format("{}: more than {} redirects (a redirect loop?)", shown, o.max_redirects));
    case CURLE_FILESIZE_EXCEEDED:
      throw UsageError(fmt::format("{}: the answer is larger than the {} bytes qsel reads from it", shown, rq.max_bytes));
    case CURLE_PARTIAL_FILE:
    case CURLE_RECV_ERROR:
    case CURLE_GOT_NOTHING:
      throw UsageError(fmt::format("{}: the answer stopped early after {} attempts ({})", shown, n, curl_easy_strerror(rc)));
    case CURLE_OUT_OF_MEMORY:  // libcurl's word for a header line past its 100 KB
      throw UsageError(fmt::format("{}: the answer's headers are too large for libcurl (a header line over 100 KB, or out of memory)", shown));
    case CURLE_UNSUPPORTED_PROTOCOL:
      if (why.find("HTTP/0.9") != std::string_view::npos)
        throw UsageError(fmt::format("{}: the answer has no HTTP status line (HTTP/0.9, or not HTTP at all)", shown));
      throw UsageError(fmt::format("{}: {} (qsel follows http and https only)", shown, why.empty() ? curl_easy_strerror(rc) : why));
    default:
      throw UsageError(fmt::format("{}: {}", shown, why.empty() ? std::string_view(curl_easy_strerror(rc)) : why));
  }
}

}  // namespace

std::string HttpResponse::header(const std::string& lower_name) const {
  auto it = headers.find(lower_name);
  return it == headers.end() ? std::string() : it->second;
}

namespace {

// A request as sent: a URL's user:password@ moved beside it (it authenticates
// the request and is never shown), every header value checked.
struct Prepared {
  HttpRequest rq;
  std::string shown;  // the URL without credentials, for messages
};

Prepared prepare(const HttpRequest& request) {
  init_once();
  Prepared p{request, redact_url(request.url)};
  HttpRequest& rq = p.rq;
  if (auto u = parse_url(rq.url); u && (!u->user.empty() || !u->password.empty())) {
    if (rq.user.empty() && rq.password.empty()) rq.user = u->user, rq.password = u->password;
    rq.url = u->shown;
  }
  check_header_value(p.shown, "If-None-Match", rq.if_none_match);
  check_header_value(p.shown, "If-Range", rq.if_range);
  check_header_value(p.shown, "bearer token", rq.bearer);
  return p;
}

[[noreturn]] void out_of_time(const std::string& shown, const HttpOptions& o) {
  throw UsageError(fmt::format("{}: no answer in time: the {} s qsel gives one command on the network ran out", shown, o.deadline_s));
}

// What an ended attempt means: the answer, or a wait before the next attempt
// (`waited_ms` holds the Retry-After and backoff waits for this answer so far);
// a UsageError when it is neither.
struct Next {
  std::optional<HttpResponse> answer;
  long wait_ms = 0;
};

Next decide(CURLcode rc, Attempt& a, const Prepared& p, const HttpOptions& o, int n, long timeout_ms, long& waited_ms) {
  const HttpRequest& rq = p.rq;
  const std::string& shown = p.shown;
  Transfer& t = a.t;
  HttpResponse& r = t.response;
  if (t.over_cap)
    throw UsageError(fmt::format("{}: the answer is larger than the {} bytes qsel reads from it", shown, rq.max_bytes));
  if (t.kept_prefix) {  // a server that ignored the Range: the prefix is what was asked for
    r.body.erase(0, static_cast<std::size_t>(rq.range->first));
    r.total_size = total_size_of(r);
    spdlog::debug("http: {} ignored the Range; kept the first {} bytes", shown, t.keep);
    return {std::move(r), 0};
  }
  bool last = n >= o.attempts;
  if (rc == CURLE_OK && retryable_status(r.status) && !last) {
    long wait = retry_after_s(r);
    if (wait > o.max_retry_after_s)
      throw UsageError(fmt::format("{}: HTTP {}: the server asks to retry after {} s; try again later", shown, r.status, wait));
    long backoff_ms = wait >= 0 ? wait * 1000 : 500L << (n - 1);
    if (wait >= 0 && waited_ms + backoff_ms > o.max_retry_after_s * 1000)  // three waits of 30 s were 90 s
      throw UsageError(fmt::format("{}: HTTP {}: the server asks to retry after {} s more, past the {} s qsel waits for one answer; try again later",
                                   shown, r.status, wait, o.max_retry_after_s));
    if (backoff_ms >= ms_left(o))
      throw UsageError(fmt::format("{}: HTTP {}: the server asks to retry after {} s, past the {}; try again later", shown, r.status,
                                   (backoff_ms + 999) / 1000, time_left_words(o)));
    spdlog::info("http: {} answered {}; retrying in {} ms (attempt {} of {})", shown, r.status, backoff_ms, n + 1, o.attempts);
    waited_ms += backoff_ms;
    return {std::nullopt, backoff_ms};
  }
  if (retryable_error(rc, t) && !last && (500L << (n - 1)) < ms_left(o)) {
    spdlog::info("http: {}: {}; retrying (attempt {} of {})", shown, curl_easy_strerror(rc), n + 1, o.attempts);
    return {std::nullopt, 500L << (n - 1)};
  }
  if (rc != CURLE_OK) fail(rc, t, shown, rq, o, n, timeout_ms < o.total_timeout_s * 1000);
  r.ranged = r.status == 206;
  r.total_size = total_size_of(r);
  spdlog::debug("http: GET {}{} -> {} ({} bytes)", shown, rq.range ? fmt::format(" [{}-{}]", rq.range->first, rq.range->second) : "",
                r.status, r.body.size());
  return {std::move(r), 0};
}

struct MultiDeleter {
  void operator()(CURLM* m) const { curl_multi_cleanup(m); }
};

}  // namespace

HttpResponse http_get(const HttpRequest& request, const HttpOptions& o) {
  Prepared p = prepare(request);
  long waited_ms = 0;  // Retry-After and backoff waits for this one answer
  for (int n = 1;; ++n) {
    long left = ms_left(o);
    if (left <= 0) out_of_time(p.shown, o);
    long timeout_ms = std::min(o.total_timeout_s * 1000, left);
    auto a = start_attempt(p.rq, o, timeout_ms);
    CURLcode rc = curl_easy_perform(a->curl.get());
    end_attempt(*a);
    if (a->t.reported && o.progress) o.progress(a->t.response.body.size(), 0, true);
    Next next = decide(rc, *a, p, o, n, timeout_ms, waited_ms);
    if (next.answer) return std::move(*next.answer);
    std::this_thread::sleep_for(std::chrono::milliseconds(next.wait_ms));
  }
}

std::vector<HttpResult> http_get_many(const std::vector<HttpRequest>& requests, const HttpOptions& options, std::size_t connections,
                                      const HttpManyProgress& progress) {
  const std::size_t total = requests.size();
  std::vector<HttpResult> out(total);
  if (total == 0) return out;
  init_once();
  HttpOptions o = options;
  o.progress = nullptr;  // one progress for all: `progress`
  const std::size_t slots = std::clamp<std::size_t>(connections, 1, 64);

  struct Job {
    Prepared p;
    int n = 0;            // attempts started
    long waited_ms = 0;   // Retry-After and backoff waits for this answer
    long timeout_ms = 0;  // of the attempt in flight
    Clock::time_point due;
    std::unique_ptr<Attempt> a;
  };
  std::vector<Job> jobs(total);
  std::deque<std::size_t> ready;               // to start now, in order
  std::vector<std::size_t> waiting;            // to start at their `due` (a retry)
  std::map<CURL*, std::size_t> running;
  std::size_t done = 0;
  std::uint64_t bytes_done = 0;
  for (std::size_t i = 0; i < total; ++i) {
    try {
      jobs[i].p = prepare(requests[i]);
      ready.push_back(i);
    } catch (...) {
      out[i].error = std::current_exception();
      ++done;
    }
  }
  std::unique_ptr<CURLM, MultiDeleter> multi(curl_multi_init());
  if (!multi) throw UsageError("cannot initialise libcurl");
  CURLM* m = multi.get();
  curl_multi_setopt(m, CURLMOPT_PIPELINING, static_cast<long>(CURLPIPE_MULTIPLEX));
  curl_multi_setopt(m, CURLMOPT_MAX_TOTAL_CONNECTIONS, static_cast<long>(slots));
  curl_multi_setopt(m, CURLMOPT_MAX_HOST_CONNECTIONS, static_cast<long>(slots));

  auto bytes_now = [&] {
    std::uint64_t b = bytes_done;
    for (const auto& [easy, i] : running) b += jobs[i].a->t.response.body.size();
    return b;
  };
  auto report = [&] {
    if (progress) progress(done, total, bytes_now());
  };
  // Every handle still in the multi handle leaves it before the handles are cleaned up.
  struct Detach {
    CURLM* m;
    std::map<CURL*, std::size_t>& running;
    ~Detach() {
      for (const auto& [easy, i] : running) curl_multi_remove_handle(m, easy);
    }
  } detach{m, running};

  auto last_report = Clock::now();
  report();
  while (done < total) {
    auto now = Clock::now();
    for (auto it = waiting.begin(); it != waiting.end();) {
      if (jobs[*it].due <= now) {
        ready.push_back(*it);
        it = waiting.erase(it);
      } else {
        ++it;
      }
    }
    while (running.size() < slots && !ready.empty()) {
      std::size_t i = ready.front();
      ready.pop_front();
      Job& j = jobs[i];
      try {
        long left = ms_left(o);
        if (left <= 0) out_of_time(j.p.shown, o);
        j.n++;
        j.timeout_ms = std::min(o.total_timeout_s * 1000, left);
        j.a = start_attempt(j.p.rq, o, j.timeout_ms);
      } catch (...) {
        out[i].error = std::current_exception();
        ++done;
        continue;
      }
      if (curl_multi_add_handle(m, j.a->curl.get()) != CURLM_OK) {
        out[i].error = std::make_exception_ptr(UsageError(fmt::format("{}: libcurl could not start the request", j.p.shown)));
        j.a.reset();
        ++done;
        continue;
      }
      running.emplace(j.a->curl.get(), i);
    }
    int still = 0;
    if (CURLMcode mc = curl_multi_perform(m, &still); mc != CURLM_OK)
      throw UsageError(fmt::format("libcurl: {}", curl_multi_strerror(mc)));
    int queued = 0;
    bool ended = false;
    while (CURLMsg* msg = curl_multi_info_read(m, &queued)) {
      if (msg->msg != CURLMSG_DONE) continue;
      CURL* easy = msg->easy_handle;
      CURLcode rc = msg->data.result;  // msg is gone once the handle leaves
      auto it = running.find(easy);
      if (it == running.end()) continue;
      std::size_t i = it->second;
      running.erase(it);
      curl_multi_remove_handle(m, easy);
      Job& j = jobs[i];
      end_attempt(*j.a);
      try {
        Next next = decide(rc, *j.a, j.p, o, j.n, j.timeout_ms, j.waited_ms);
        if (next.answer) {
          bytes_done += next.answer->body.size();
          out[i].response = std::move(next.answer);
          ++done;
        } else {
          j.due = Clock::now() + std::chrono::milliseconds(next.wait_ms);
          waiting.push_back(i);
        }
      } catch (...) {
        out[i].error = std::current_exception();
        ++done;
      }
      j.a.reset();
      ended = true;
    }
    now = Clock::now();
    if (ended || now - last_report >= std::chrono::milliseconds(100)) {
      report();
      last_report = now;
    }
    if (done == total) break;
    // Wake for the network, the next retry that falls due, or the next progress report.
    long wait_ms = 100;
    if (!ready.empty() && running.size() < slots) wait_ms = 0;
    for (std::size_t i : waiting)
      wait_ms = std::min<long>(wait_ms, std::max<long>(0, std::chrono::duration_cast<std::chrono::milliseconds>(jobs[i].due - now).count()));
    if (wait_ms > 0) curl_multi_poll(m, nullptr, 0, static_cast<int>(wait_ms), nullptr);
  }
  return out;
}

}  // namespace qsel
