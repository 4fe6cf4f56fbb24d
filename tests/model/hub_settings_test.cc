// The Hub client's settings from the environment, under the names the
// huggingface_hub library uses. Each case sets its variables and restores them.
#include <cstdlib>

#include <catch2/catch.hpp>

#include "qsel/core/errors.h"
#include "qsel/model/hub.h"
#include "support/fixtures.h"

using namespace qsel;
using Catch::Contains;

namespace {

// Sets variables for one scope; the ones it touched are unset again afterwards.
struct Env {
  std::vector<std::string> names;
  Env(std::initializer_list<std::pair<const char*, const char*>> vars) {
    for (const char* n : {"HF_ENDPOINT", "HF_TOKEN", "HUGGING_FACE_HUB_TOKEN", "HF_TOKEN_PATH", "HF_HOME", "HF_HUB_OFFLINE",
                          "HF_HUB_DOWNLOAD_TIMEOUT", "HF_HUB_ETAG_TIMEOUT", "QSEL_CACHE_DIR", "XDG_CACHE_HOME"})
      if (std::getenv(n)) saved.emplace_back(n, std::getenv(n)), unsetenv(n);
    for (auto [k, v] : vars) setenv(k, v, 1), names.push_back(k);
  }
  ~Env() {
    for (const auto& n : names) unsetenv(n.c_str());
    for (const auto& [k, v] : saved) setenv(k.c_str(), v.c_str(), 1);
  }
  std::vector<std::pair<std::string, std::string>> saved;
};

}  // namespace

TEST_CASE("hub settings: the defaults, the endpoint, offline and the cache folder", "[model][hub]") {
  {
    Env e({{"XDG_CACHE_HOME", "/tmp/xdg"}});
    HubSettings s = hub_settings_from_environment(false, true);
    CHECK(s.endpoint == "https://huggingface.co");
    CHECK(!s.offline);
    CHECK(s.cache_dir == "/tmp/xdg/qsel");
    CHECK(s.http.stall_timeout_s == 10);
  }
  {
    Env e({{"HF_ENDPOINT", "https://hf-mirror.example/"}, {"HF_HUB_OFFLINE", "1"}, {"QSEL_CACHE_DIR", "/c"}, {"HF_HUB_DOWNLOAD_TIMEOUT", "3"}});
    HubSettings s = hub_settings_from_environment(false, false);
    CHECK(s.endpoint == "https://hf-mirror.example");
    CHECK(s.offline);
    CHECK(s.cache_dir == "/c");
    CHECK(s.http.stall_timeout_s == 3);
  }
  CHECK(hub_settings_from_environment(true, false).offline);
}

TEST_CASE("hub settings: the token from HF_TOKEN or the token file, trimmed, a bad variable is named", "[model][hub]") {
  test::TempDir d;
  d.write("hf/token", "hf_from_file\n");
  {
    Env e({{"HF_HOME", (d.path() / "hf").c_str()}});
    HubSettings s = hub_settings_from_environment(false, false);
    CHECK(s.token == "hf_from_file");
    CHECK(s.token_from == (d.path() / "hf" / "token").string());
  }
  {
    Env e({{"HF_HOME", (d.path() / "hf").c_str()}, {"HF_TOKEN", " hf_env "}});
    CHECK(hub_settings_from_environment(false, false).token == "hf_env");
  }
  {
    Env e({{"HF_HUB_DOWNLOAD_TIMEOUT", "forever"}});
    CHECK_THROWS_WITH(hub_settings_from_environment(false, false), "HF_HUB_DOWNLOAD_TIMEOUT=\"forever\": expected whole seconds from 1 to 600");
  }
  {
    Env e({{"HF_ENDPOINT", "huggingface.co"}});
    CHECK_THROWS_WITH(hub_settings_from_environment(false, false), Contains("HF_ENDPOINT=\"huggingface.co\": expected an http:// or https:// URL"));
  }
}

TEST_CASE("hub settings: an upper-case scheme is an http(s) URL too (it was refused)", "[model][hub]") {
  Env e({{"HF_ENDPOINT", "HTTP://Mirror.Example:8080/"}});
  HubSettings s = hub_settings_from_environment(false, false);
  CHECK(s.endpoint == "http://mirror.example:8080");
}

TEST_CASE("hub settings: a user:password@ in HF_ENDPOINT is kept apart from the endpoint, and never echoed (M1)", "[model][hub]") {
  {
    Env e({{"HF_ENDPOINT", "https://alice:pa%24%24@hf-mirror.example/"}});
    HubSettings s = hub_settings_from_environment(false, false);
    CHECK(s.endpoint == "https://hf-mirror.example");
    CHECK(s.user == "alice");
    CHECK(s.password == "pa$$");
  }
  {
    Env e({{"HF_ENDPOINT", "ftp://alice:pa55word@hf-mirror.example/"}});
    try {
      hub_settings_from_environment(false, false);
      FAIL("no error");
    } catch (const UsageError& ex) {
      CHECK_THAT(ex.what(), Contains("HF_ENDPOINT=\"ftp://hf-mirror.example/\": expected an http:// or https:// URL"));
      CHECK_THAT(ex.what(), !Contains("pa55word"));
    }
  }
}

TEST_CASE("hub settings: a token file that cannot be read fails the first request, not every command", "[model][hub]") {
  test::TempDir d;
  auto big = d.write("big-token", std::string(10000, 'x'));
  auto two = d.write("two-lines", "hf_a\nhf_b\n");
  for (const auto& file : {big, two}) {
    INFO(file);
    Env e({{"HF_TOKEN_PATH", file.c_str()}});
    HubSettings s;
    REQUIRE_NOTHROW(s = hub_settings_from_environment(false, false));  // recommend --model-size needs no token
    CHECK(s.token.empty());
    CHECK_THAT(s.token_problem, Contains(file.string()));
    s.endpoint = "http://127.0.0.1:1";
    s.cache_dir.clear();
    CHECK_THROWS_WITH(Hub(s).repo("a/b", "main"), Contains(file.string()) && Contains("HF_TOKEN_PATH"));
  }
}
