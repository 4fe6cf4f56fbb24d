// The Hub client against the loopback Hub: names, file lists, headers by
// Range, the cache (a second question makes no request), offline, and the
// Hub's refusals as one line that says what to do.
#include <catch2/catch.hpp>

#include "qsel/artifact/gguf.h"
#include "qsel/artifact/safetensors.h"
#include "qsel/core/errors.h"
#include "qsel/model/hub.h"
#include "support/hub_fixtures.h"

using namespace qsel;
using Catch::Contains;

using test::hub_settings;

TEST_CASE("hub: the ways to name a model on the Hub", "[model][hub]") {
  const std::string ep = "https://huggingface.co";
  auto r = parse_hub_ref("Qwen/Qwen3-32B-AWQ", ep);
  REQUIRE(r);
  CHECK(r->repo == "Qwen/Qwen3-32B-AWQ");
  CHECK(r->revision == "main");
  CHECK(!r->revision_given);
  r = parse_hub_ref("unsloth/Llama-3.1-8B-Instruct-GGUF@refs/pr/1:Q4_K_M", ep);
  REQUIRE(r);
  CHECK(r->revision == "refs/pr/1");
  CHECK(r->tag == "Q4_K_M");
  CHECK(r->display() == "unsloth/Llama-3.1-8B-Instruct-GGUF@refs/pr/1:Q4_K_M");
  r = parse_hub_ref("https://huggingface.co/bartowski/Qwen-GGUF/blob/main/sub/Qwen-Q8_0.gguf?download=true", ep);
  REQUIRE(r);
  CHECK(r->repo == "bartowski/Qwen-GGUF");
  CHECK(r->file == "sub/Qwen-Q8_0.gguf");
  r = parse_hub_ref("https://hf.co/Qwen/Qwen3-8B", ep);
  REQUIRE(r);
  CHECK(r->repo == "Qwen/Qwen3-8B");
  r = parse_hub_ref("https://example.com/models/x.gguf", ep);
  REQUIRE(r);
  CHECK(r->url == "https://example.com/models/x.gguf");
  CHECK(!parse_hub_ref("llama-3.1-8b", ep));
  CHECK(!parse_hub_ref("a/b/c", ep));
  CHECK(!parse_hub_ref("./models/x", ep));
  CHECK_THROWS_WITH(parse_hub_ref("Qwen/Qwen3@../../etc", ep), Contains("expected a revision"));
  CHECK_THROWS_WITH(parse_hub_ref("Qwen/Qwen3:Q4 K", ep), Contains("expected a GGUF quantization tag"));
  CHECK_THROWS_WITH(parse_hub_ref("https://example.com/page.html", ep), Contains("a Hugging Face model URL or the URL of a .gguf file"));
  CHECK_THROWS_WITH(parse_hub_ref("https://huggingface.co/datasets/a/b", ep), Contains("a dataset or a Space"));
  CHECK_THROWS_WITH(parse_hub_ref("https://huggingface.co/a/b/resolve/main/../x.gguf", ep), Contains("expected a file path"));
}

TEST_CASE("hub: the file list, a small file and a header, the second time from the cache", "[model][hub]") {
  test::HubServer s;
  test::serve_qwen3_32b_awq(s);
  test::TempDir d;
  {
    Hub hub(hub_settings(s, d));
    HubRepo r = hub.repo(test::kAwqRepo, "main");
    CHECK(r.sha == test::kAwqSha);
    CHECK(r.files.size() == 5);
    CHECK(!hub.small_file(r, "config.json", 1 << 20, "config.json").empty());
    auto f = hub.open(r, *r.find("model-00001-of-00002.safetensors"));
    char b[8];
    CHECK(f->read_at(0, b, 8));
    CHECK(hub.cache_hits() == 0);
  }
  int before = s.requests();
  Hub again(hub_settings(s, d));
  HubRepo r = again.repo(test::kAwqRepo, "main");
  CHECK(r.from_cache);
  CHECK(!again.small_file(r, "config.json", 1 << 20, "config.json").empty());
  auto f = again.open(r, *r.find("model-00001-of-00002.safetensors"));
  char b[8];
  CHECK(f->read_at(0, b, 8));
  CHECK(s.requests() == before);
  CHECK(again.requests() == 0);
  CHECK(again.cache_hits() == 3);
}

TEST_CASE("hub: a stale file list is checked with its ETag (304 keeps the cache)", "[model][hub]") {
  test::HubServer s;
  test::serve_qwen3_32b_awq(s);
  test::TempDir d;
  HubSettings h = hub_settings(s, d);
  Hub(h).repo(test::kAwqRepo, "main");
  h.fresh_s = 0;
  Hub hub(h);
  CHECK(hub.repo(test::kAwqRepo, "main").sha == test::kAwqSha);
  CHECK(hub.requests() == 1);
  CHECK(s.log().back().find(" 304") != std::string::npos);
}

TEST_CASE("hub: offline reads only the cache, and says so when it is empty", "[model][hub]") {
  test::HubServer s;
  test::serve_qwen3_32b_awq(s);
  test::TempDir d;
  HubSettings h = hub_settings(s, d);
  h.offline = true;
  CHECK_THROWS_WITH(Hub(h).repo(test::kAwqRepo, "main"),
                    Contains("Qwen/Qwen3-32B-AWQ@main: not in the cache (") && Contains("and offline (--offline or HF_HUB_OFFLINE)"));
  CHECK(s.requests() == 0);
  h.cache_dir.clear();
  CHECK_THROWS_WITH(Hub(h).repo(test::kAwqRepo, "main"), Contains("offline, and no cache folder"));
}

TEST_CASE("hub: gated, private, missing repos and revisions are one line each", "[model][hub]") {
  test::HubServer s;
  test::serve_misbehaving(s);
  test::serve_qwen3_32b_awq(s);
  test::TempDir d;
  HubSettings h = hub_settings(s, d);
  Hub hub(h);
  HubRepo gated = hub.repo("test/gated", "main");
  CHECK(gated.gated == "manual");
  CHECK_THROWS_WITH(hub.small_file(gated, "config.json", 1 << 20, "config.json"),
                    Contains("test/gated: gated: accept the licence on the model page (" + s.endpoint() + "/test/gated) and set HF_TOKEN"));
  h.token = "hf_secret_token";
  h.token_from = "HF_TOKEN";
  Hub with_token(h);
  try {
    with_token.small_file(gated, "config.json", 1 << 20, "config.json");
    FAIL("no error");
  } catch (const UsageError& e) {
    CHECK_THAT(e.what(), Contains("the token from HF_TOKEN has no access to it yet"));
    CHECK_THAT(e.what(), !Contains("hf_secret_token"));
  }
  CHECK_THROWS_WITH(hub.repo("test/private", "main"), Contains("no such model repository on " + s.endpoint() + ", or a private one (set HF_TOKEN"));
  CHECK_THROWS_WITH(hub.repo("nobody/nothing", "main"), Contains("nobody/nothing: no such model repository on"));
  CHECK_THROWS_WITH(hub.repo(test::kAwqRepo, "v9"), Contains("Qwen/Qwen3-32B-AWQ: no revision named in \"v9\""));
  HubRepo awq = hub.repo(test::kAwqRepo, "main");
  CHECK_THROWS_WITH(hub.small_file(awq, "nope.json", 100, "x"), Contains("no file \"nope.json\" in the repository"));
}

TEST_CASE("hub: GGUF tags name files, whole words, split parts together", "[model][hub]") {
  test::HubServer s;
  test::serve_llama_gguf(s);
  test::TempDir d;
  Hub hub(hub_settings(s, d));
  HubRepo r = hub.repo(test::kGgufRepo, "main");
  CHECK(gguf_files_for_tag(r, "q4_k_m") == std::vector<std::string>{"Llama-3.1-8B-Instruct-Q4_K_M.gguf"});
  CHECK(gguf_files_for_tag(r, "Q2_K").size() == 2);
  CHECK(gguf_files_for_tag(r, "Q4_K").empty());  // not a whole word of Q4_K_M
  CHECK(gguf_tags(r) == std::vector<std::string>{"Q2_K", "Q4_K_M", "Q8_0"});
}

TEST_CASE("hub: a GGUF header read by Range grows until the tensor infos are complete", "[model][hub]") {
  test::HubServer s;
  test::serve_llama_gguf(s);
  test::TempDir d;
  Hub hub(hub_settings(s, d));
  HubRepo r = hub.repo(test::kGgufRepo, "main");
  auto f = hub.open(r, *r.find("Llama-3.1-8B-Instruct-Q4_K_M.gguf"));
  GgufFile g = read_gguf(*f);
  CHECK(g.tensors.size() == 32 * 9 + 3);
  CHECK(hub.requests() >= 4);  // 256 KiB, 512 KiB, 1 MiB, 2 MiB: the 1.5 MB token list
  CHECK(hub.requests() <= 6);
}

TEST_CASE("hub: a header length of 2^63 is refused before anything is read", "[model][hub]") {
  test::HubServer s;
  test::serve_misbehaving(s);
  test::TempDir d;
  Hub hub(hub_settings(s, d));
  HubRepo r = hub.repo("test/huge-header", "main");
  auto f = hub.open(r, *r.find("model.safetensors"));
  CHECK_THROWS_WITH(read_safetensors(*f), Contains("test/huge-header/model.safetensors: byte 0: header length 9223372036854775808 is over"));
}
