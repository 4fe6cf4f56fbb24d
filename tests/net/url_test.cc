// URLs from strangers, read with libcurl's own parser: the host, the origin a
// cache keys by, and every URL shown without the credentials it may carry
// (issue 41, M1: a user:password@ in HF_ENDPOINT was printed everywhere).
#include <catch2/catch.hpp>

#include "qsel/net/url.h"

using namespace qsel;

TEST_CASE("url: userinfo is split off, and what is shown never holds it", "[net][url]") {
  auto u = parse_url("https://alice:s%3Acret@Mirror.Example:8443/hf/?x=1#f");
  REQUIRE(u);
  CHECK(u->scheme == "https");
  CHECK(u->host == "mirror.example");
  CHECK(u->port == 8443);
  CHECK(u->path == "/hf/");
  CHECK(u->user == "alice");
  CHECK(u->password == "s:cret");  // percent-decoded: what libcurl sends
  CHECK(u->shown == "https://mirror.example:8443/hf/?x=1#f");
  CHECK(redact_url("http://user:pw@127.0.0.1:8080/a/b.gguf") == "http://127.0.0.1:8080/a/b.gguf");
  CHECK(redact_url("http://token@host/x") == "http://host/x");
  // Not a URL libcurl reads: anything up to the last '@' of what looks like an authority goes.
  CHECK(redact_url("https://u:p@exa mple.com/x") == "https://exa mple.com/x");
  CHECK(redact_url("Qwen/Qwen3-32B-AWQ@main") == "Qwen/Qwen3-32B-AWQ@main");  // not a URL at all: unchanged
}

TEST_CASE("url: the scheme is case-insensitive, and only http and https are URLs here", "[net][url]") {
  CHECK(url_host("HTTP://HuggingFace.CO/a") == "huggingface.co");  // issue 41: an upper-case scheme was refused
  CHECK(url_host("HTTPS://hf.co:443") == "hf.co");
  CHECK(url_host("https://User@HuggingFace.co/a/b") == "huggingface.co");
  CHECK(url_host("ftp://x/y").empty());
  CHECK(url_host("file:///etc/passwd").empty());
  CHECK(url_host("huggingface.co").empty());
  CHECK(url_host("").empty());
  auto u = parse_url("HTTP://Example.com");
  REQUIRE(u);
  CHECK(u->scheme == "http");
  CHECK(u->port == 80);
  CHECK(u->shown == "http://example.com/");
}

TEST_CASE("url: the origin keeps scheme, host, port and path apart (http and https shared cache entries)", "[net][url]") {
  CHECK(url_origin("http://127.0.0.1:8080") != url_origin("https://127.0.0.1:8080"));
  CHECK(url_origin("https://mirror.example/a") != url_origin("https://mirror.example/b"));
  CHECK(url_origin("https://mirror.example:444/") != url_origin("https://mirror.example/"));
  CHECK(url_origin("https://u:p@Mirror.Example/") == url_origin("HTTPS://mirror.example"));  // no credentials in a key
  CHECK(url_origin("https://huggingface.co") == "https://huggingface.co:443");
  CHECK(url_origin("https://mirror.example/hf/") == "https://mirror.example:443/hf");
  CHECK(url_origin("not a url").empty());
}

TEST_CASE("url: hostile input is refused or kept short, never a crash", "[net][url]") {
  CHECK(!parse_url(std::string(100000, 'a')));
  CHECK(!parse_url("https://" + std::string(100000, 'a')));  // past the length qsel reads as a URL
  CHECK(!parse_url(std::string("https://h\0st/", 13)));
  CHECK(!parse_url("https://host:99999/"));
  CHECK(!parse_url("https://:@/"));  // no host (libcurl reads "https:///path" as the host "path", as browsers do)
  CHECK(redact_url(std::string("https://a:b@c\r\nd/")).find("a:b") == std::string::npos);
}

TEST_CASE("url: same origin is scheme, host and port", "[net][url]") {
  CHECK(same_origin("https://huggingface.co/api/x", "HTTPS://HuggingFace.co:443"));
  CHECK(!same_origin("https://huggingface.co", "http://huggingface.co"));
  CHECK(!same_origin("https://huggingface.co", "https://huggingface.co:8443"));
  CHECK(!same_origin("https://huggingface.co", "https://cdn-lfs.huggingface.co"));
  CHECK(!same_origin("nope", "nope"));
}
