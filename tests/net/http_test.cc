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
  CHECK(http_get(rq, quick()).status == 200);
  auto log = s.log();
  REQUIRE(log.size() == 2);
  CHECK(log[0].find("/resolve/") != std::string::npos);
  CHECK(log[0].find("(token)") != std::string::npos);
  CHECK(log[1].find("/cdn/") != std::string::npos);
  CHECK(log[1].find("(token)") == std::string::npos);
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
  CHECK(url_host("https://User@HuggingFace.co/a/b") == "huggingface.co");
  CHECK(url_host("ftp://x/y").empty());
}
