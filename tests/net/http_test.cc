// http_get against the loopback Hub (support/hub_server.h): redirects, Range,
// the body cap, retries with Retry-After, and every way a server can misbehave
// ends in an answer or one located error, never a hang.
#include <chrono>

#include <catch2/catch.hpp>

#include "qsel/core/errors.h"
#include "qsel/net/http.h"
#include "support/hub_fixtures.h"

using namespace qsel;
using Catch::Contains;

namespace {

HttpOptions quick() {
  HttpOptions o;
  o.stall_timeout_s = 1;
  o.connect_timeout_s = 2;
  o.total_timeout_s = 20;
  return o;
}

std::string resolve_url(const test::HubServer& s, const std::string& repo, const std::string& file) {
  return s.endpoint() + "/" + repo + "/resolve/main/" + file;
}

}  // namespace

TEST_CASE("http: a redirect to the file host is followed, and a Range answered with 206", "[net]") {
  test::HubServer s;
  test::serve_qwen3_32b_awq(s);
  HttpRequest rq;
  rq.url = resolve_url(s, test::kAwqRepo, "model-00001-of-00002.safetensors");
  rq.range = {{0, 7}};
  HttpResponse r = http_get(rq, quick());
  CHECK(r.status == 206);
  CHECK(r.ranged);
  CHECK(r.body.size() == 8);
  CHECK(r.total_size > 1'000'000'000);
  CHECK(r.url.find("/cdn/") != std::string::npos);
}

TEST_CASE("http: the bearer token goes to the Hub host only, never to the file host it redirects to", "[net]") {
  test::HubServer s;
  test::serve_qwen3_32b_awq(s);
  HttpRequest rq;
  rq.url = resolve_url(s, test::kAwqRepo, "config.json");
  rq.bearer = "hf_secret";
  HttpResponse r = http_get(rq, quick());
  CHECK(r.status == 200);
  auto log = s.log();
  REQUIRE(log.size() == 2);
  CHECK(log[0].find("/resolve/") != std::string::npos);
  CHECK(log[0].find("(token)") != std::string::npos);
  CHECK(log[1].find("/cdn/") != std::string::npos);
  CHECK(log[1].find("(token)") == std::string::npos);
  // The file host is localhost: another host, and an internal address. Followed, as docs/reliability.md states.
  CHECK(r.url.rfind("http://localhost:", 0) == 0);
  CHECK(test::read_text(test::source_dir() + "/docs/reliability.md").find("Redirects to internal addresses are followed") != std::string::npos);
}

TEST_CASE("http: 429 with Retry-After and a 500 are retried, the second answer is used", "[net]") {
  test::HubServer s;
  test::serve_misbehaving(s);
  for (const char* repo : {"test/rate-limited", "test/flaky"}) {
    HttpRequest rq;
    rq.url = s.endpoint() + "/api/models/" + repo + "/revision/main";
    auto started = std::chrono::steady_clock::now();
    HttpResponse r = http_get(rq, quick());
    CHECK(r.status == 200);
    if (std::string(repo) == "test/rate-limited") CHECK(std::chrono::steady_clock::now() - started >= std::chrono::milliseconds(900));
  }
  CHECK(s.requests() == 4);
}

TEST_CASE("http: a Retry-After longer than the client waits is reported, not slept through", "[net]") {
  HttpOptions o = quick();
  o.max_retry_after_s = 0;
  test::HubServer s;
  test::serve_misbehaving(s);
  HttpRequest rq;
  rq.url = s.endpoint() + "/api/models/test/rate-limited/revision/main";
  CHECK_THROWS_WITH(http_get(rq, o), Contains("HTTP 429: the server asks to retry after 1 s"));
}

TEST_CASE("http: hostile servers end in one located error, never a hang", "[net]") {
  test::HubServer s;
  test::serve_misbehaving(s);
  auto get = [&](const std::string& repo, std::optional<std::pair<std::uint64_t, std::uint64_t>> range, std::size_t cap = 16 << 20) {
    HttpRequest rq;
    rq.url = resolve_url(s, repo, repo == "test/huge-length" ? "config.json" : "model.safetensors");
    rq.range = range;
    rq.max_bytes = cap;
    return http_get(rq, quick());
  };
  auto started = std::chrono::steady_clock::now();
  SECTION("a body that stops early, after the retries") {
    CHECK_THROWS_WITH(get("test/short-body", std::nullopt), Contains("the answer stopped early after 4 attempts"));
  }
  SECTION("a redirect loop") { CHECK_THROWS_WITH(get("test/redirect-loop", std::nullopt), Contains("more than 8 redirects")); }
  SECTION("a response that never ends") { CHECK_THROWS_WITH(get("test/never-ends", std::nullopt), Contains("no answer in time")); }
  SECTION("a 10 GB Content-Length") { CHECK_THROWS_WITH(get("test/huge-length", std::nullopt), Contains("larger than the 16777216 bytes")); }
  SECTION("a body over the cap") { CHECK_THROWS_WITH(get("test/ignore-range", std::nullopt, 1 << 20), Contains("larger than the 1048576 bytes")); }
  SECTION("a Range the server ignores: the prefix asked for is kept, the rest not read") {
    HttpResponse r = get("test/ignore-range", std::pair<std::uint64_t, std::uint64_t>{0, 99});
    CHECK(r.status == 200);
    CHECK(r.body.size() == 100);
    CHECK(r.total_size == (40u << 20));
  }
  CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(15));
}

TEST_CASE("http: nothing listening is an error naming the URL", "[net]") {
  HttpRequest rq;
  rq.url = "http://127.0.0.1:1/x";
  CHECK_THROWS_WITH(http_get(rq, quick()), Contains("http://127.0.0.1:1/x: "));
}

// ---- issue 41: slow servers, one deadline, honest messages, credentials beside the URL ----

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The message of the error http_get must throw.
std::string http_error(const HttpRequest& rq, const HttpOptions& o) {
  try {
    http_get(rq, o);
  } catch (const UsageError& e) {
    return e.what();
  }
  FAIL("no error");
  return "";
}

}  // namespace

TEST_CASE("http: a trickle of one byte every 0.6 s ends at the stall window (it took 120 s a request)", "[net][slow]") {
  test::HubServer s;
  test::serve_misbehaving(s);
  HttpOptions o = quick();
  o.stall_timeout_s = 2;
  o.total_timeout_s = 120;
  HttpRequest rq;
  rq.url = resolve_url(s, "test/trickle", "config.json");
  auto t0 = std::chrono::steady_clock::now();
  CHECK_THROWS_WITH(http_get(rq, o), Contains("bytes a second for 2 s"));
  CHECK(seconds_since(t0) < 15);  // the 2 s window and libcurl's once-a-second check, on a loaded machine
}

TEST_CASE("http: one deadline across retries: a storm of 429s asking for 20 s ends inside it", "[net][slow]") {
  test::HubServer s;
  test::serve_misbehaving(s);
  HttpOptions o = quick();
  o.deadline = std::chrono::steady_clock::now() + std::chrono::seconds(3);
  HttpRequest rq;
  rq.url = s.endpoint() + "/api/models/test/storm/revision/main";
  auto t0 = std::chrono::steady_clock::now();
  CHECK_THROWS_WITH(http_get(rq, o), Contains("HTTP 429: the server asks to retry after 20 s") && Contains("left of the"));
  CHECK(seconds_since(t0) < 10);  // three Retry-After waits took 60 s
  CHECK(s.requests() == 1);
}

TEST_CASE("http: a TLS handshake that never finishes ends at the stall limit, not the connect timeout", "[net][slow]") {
  test::HubServer s;
  s.set_silent(true);
  HttpOptions o = quick();
  o.connect_timeout_s = 30;
  o.stall_timeout_s = 1;
  HttpRequest rq;
  rq.url = "https" + s.endpoint().substr(4) + "/x";
  auto t0 = std::chrono::steady_clock::now();
  CHECK_THROWS_WITH(http_get(rq, o), Contains("the TLS handshake (or a proxy's tunnel) made no progress for 1 s"));
  CHECK(seconds_since(t0) < 10);
}

TEST_CASE("http: a header flood and an HTTP/0.9 answer say what they are, and are not retried", "[net]") {
  test::HubServer s;
  test::serve_misbehaving(s);
  HttpRequest rq;
  rq.url = resolve_url(s, "test/header-flood", "config.json");
  std::string flood = http_error(rq, quick());
  CHECK_THAT(flood, Contains("more header bytes than qsel reads"));
  CHECK_THAT(flood, !Contains("Failure when receiving") && !Contains("Out of memory"));
  CHECK(s.requests() == 2);  // the redirect and one answer: a flood is not retried
  rq.url = resolve_url(s, "test/http09", "config.json");
  std::string http09 = http_error(rq, quick());
  CHECK_THAT(http09, Contains("no HTTP status line"));
  CHECK_THAT(http09, !Contains("Unsupported protocol"));
}

TEST_CASE("http: credentials beside the URL authenticate the first host only, and are never in the URL", "[net]") {
  test::HubServer s;
  test::serve_qwen3_32b_awq(s);
  HttpRequest rq;
  rq.url = resolve_url(s, test::kAwqRepo, "config.json");
  rq.user = "alice";
  rq.password = "s3cret";
  HttpResponse r = http_get(rq, quick());
  CHECK(r.status == 200);
  auto h = s.request_headers();
  REQUIRE(h.size() == 2);
  CHECK(h[0].count("authorization"));
  CHECK(h[0]["authorization"].rfind("Basic ", 0) == 0);
  CHECK(!h[1].count("authorization"));  // the file host it redirects to gets nothing
  CHECK(r.url.find("s3cret") == std::string::npos);
}

TEST_CASE("http: a validator holding a line break is never sent as a header", "[net]") {
  test::HubServer s;
  test::serve_qwen3_32b_awq(s);
  HttpRequest rq;
  rq.url = s.endpoint() + "/api/models/" + test::kAwqRepo + "/revision/main";
  rq.if_none_match = "\"x\"\r\nX-Evil: 1";
  CHECK_THROWS_WITH(http_get(rq, quick()), Contains("If-None-Match") && Contains("line break"));
  rq.if_none_match.clear();
  rq.if_range = "\"y\"\rX-Evil: 1";
  CHECK_THROWS_WITH(http_get(rq, quick()), Contains("If-Range") && Contains("line break"));
  CHECK(s.requests() == 0);
  rq.if_range = "\"y\"";
  rq.range = {{0, 9}};
  rq.url = resolve_url(s, test::kAwqRepo, "config.json");
  http_get(rq, quick());
  auto h = s.request_headers();
  REQUIRE(h.size() == 2);
  CHECK(h[1]["if-range"] == "\"y\"");
}

TEST_CASE("http: Retry-After waits for one answer add up to 30 s at most (three waits of 30 s were 90 s)", "[net][slow]") {
  test::HubServer s;
  test::serve_misbehaving(s);
  s.set_retry_after(1);
  HttpOptions o = quick();
  o.max_retry_after_s = 2;  // the same rule as 30 s, at the scale of a test
  HttpRequest rq;
  rq.url = s.endpoint() + "/api/models/test/storm/revision/main";
  auto t0 = std::chrono::steady_clock::now();
  CHECK_THROWS_WITH(http_get(rq, o), Contains("HTTP 429: the server asks to retry after 1 s more, past the 2 s qsel waits for one answer"));
  CHECK(seconds_since(t0) < 8);
  CHECK(s.requests() == 3);  // two waits of 1 s, then the third 429 is the answer
}

TEST_CASE("http: many requests at once: each answer or error is http_get's, in the order asked, 8 at a time", "[net]") {
  test::HubServer s;
  test::serve_misbehaving(s);
  test::serve_qwen3_32b_awq(s);
  s.set_retry_after(1);
  HttpOptions o = quick();
  o.attempts = 2;  // one retry: a body cut short twice is an error after 0.5 s, not 3.5 s
  o.deadline = std::chrono::steady_clock::now() + std::chrono::seconds(8);
  o.deadline_s = 8;
  struct Case {
    std::string repo, file;
    std::optional<std::pair<std::uint64_t, std::uint64_t>> range;
    std::string error;  // empty: an answer
  };
  const std::vector<Case> cases = {
      {"test/redirect-loop", "model.safetensors", std::nullopt, "more than 8 redirects"},
      {test::kAwqRepo, "config.json", std::nullopt, ""},
      {"test/never-ends", "model.safetensors", std::nullopt, "no answer in time: the server sent less than 1024 bytes a second for 1 s"},
      {"test/huge-length", "config.json", std::nullopt, "larger than the 16777216 bytes"},
      {"test/ignore-range", "model.safetensors", std::pair<std::uint64_t, std::uint64_t>{0, 99}, ""},
      {"test/short-body", "model.safetensors", std::nullopt, "the answer stopped early after 2 attempts"},
      {"test/header-flood", "model.safetensors", std::nullopt, "more header bytes than qsel reads (64 KiB)"},
      {"test/http09", "model.safetensors", std::nullopt, "no HTTP status line"},
      {"test/storm", "config.json", std::nullopt, ""},  // 429, Retry-After: 1, waited once, then the last answer
      {test::kAwqRepo, "model-00002-of-00002.safetensors", std::pair<std::uint64_t, std::uint64_t>{0, 7}, ""},
      {test::kAwqRepo, "no-such-file", std::nullopt, ""},  // a 404 is an answer: the caller says what it means
  };
  std::vector<HttpRequest> rqs;
  for (const auto& c : cases) {
    HttpRequest rq;
    rq.url = resolve_url(s, c.repo, c.file);
    rq.range = c.range;
    rq.bearer = "hf_secret";
    rqs.push_back(rq);
  }
  std::size_t last_done = 0, reports = 0;
  bool monotone = true;
  auto started = std::chrono::steady_clock::now();
  auto got = http_get_many(rqs, o, 8, [&](std::size_t done, std::size_t total, std::uint64_t) {
    monotone = monotone && done >= last_done && total == cases.size();
    last_done = done;
    reports++;
  });
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  REQUIRE(got.size() == cases.size());
  for (std::size_t i = 0; i < cases.size(); ++i) {
    INFO(cases[i].repo << "/" << cases[i].file);
    if (cases[i].error.empty()) {
      REQUIRE(got[i].response);
      CHECK(!got[i].error);
      continue;
    }
    REQUIRE(got[i].error);
    CHECK(!got[i].response);
    CHECK_THROWS_WITH(std::rethrow_exception(got[i].error), Contains(cases[i].error));
  }
  CHECK(got[1].response->status == 200);
  CHECK(got[4].response->body.size() == 100);
  CHECK(got[8].response->status == 429);
  CHECK(got[9].response->status == 206);
  CHECK(got[9].response->body.size() == 8);
  CHECK(got[10].response->status == 404);
  CHECK(monotone);
  CHECK(last_done == cases.size());
  CHECK(reports >= 2);
  // The token went to the first host only, as with http_get.
  for (const auto& line : s.log())
    if (line.find("/cdn/") != std::string::npos) CHECK(line.find("(token)") == std::string::npos);
  CHECK(s.most_concurrent() <= 8);
  INFO(seconds << " s");
  CHECK(seconds >= 1.0);  // the Retry-After was honoured
  CHECK(seconds < 6.0);   // the stalls ran side by side
}

TEST_CASE("http: many requests share the command's deadline, retries and waits included", "[net]") {
  test::HubServer s;
  test::serve_misbehaving(s);
  s.set_retry_after(1);
  HttpOptions o = quick();
  o.deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(1500);
  o.deadline_s = 1;
  std::vector<HttpRequest> rqs(12);
  for (auto& rq : rqs) rq.url = resolve_url(s, "test/storm", "config.json");
  auto started = std::chrono::steady_clock::now();
  auto got = http_get_many(rqs, o, 4);
  CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(3));
  for (const auto& r : got) {
    REQUIRE(r.error);
    CHECK_THROWS_WITH(std::rethrow_exception(r.error), Contains("past the") || Contains("ran out"));
  }
  CHECK(http_get_many({}, o).empty());
}
