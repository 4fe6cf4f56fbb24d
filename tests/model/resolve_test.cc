// resolve_model: every way to name a model gives one ModelSpec, records before
// files before the network, and a Hub checkpoint read as a local folder is.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include <catch2/catch.hpp>

#include "qsel/core/errors.h"
#include "qsel/graph/embedded_graph.h"
#include "qsel/loader/corpus_blob.h"
#include "qsel/model/resolve.h"
#include "support/hub_fixtures.h"

using namespace qsel;
using Catch::Contains;

using test::hub_settings;

TEST_CASE("resolve: a repo a model record lists is the record, with no request", "[model][resolve]") {
  test::HubServer s;
  test::TempDir d;
  const Graph& g = embedded_graph();
  ModelSpec m = resolve_model(g, {"", "meta-llama/Llama-3.1-8B-Instruct", ""}, hub_settings(s, d));
  CHECK(m.id == "llama-3.1-8b");
  CHECK(m.origin == "record");
  CHECK(m.source.find("no network") != std::string::npos);
  // Naming a quantized release makes it the checkpoint served as it is.
  ModelSpec awq = resolve_model(g, {"", "qwen/qwen3-32b-awq", ""}, hub_settings(s, d));
  CHECK(awq.id == "qwen3-32b");
  REQUIRE(awq.shipped());
  CHECK(awq.shipped()->format == "awq");
  CHECK(awq.shipped()->local);
  CHECK(s.requests() == 0);
}

TEST_CASE("resolve: a Hub checkpoint is read like a local folder: shipped AWQ, parameters from the tensors", "[model][resolve]") {
  test::HubServer s;
  test::serve_qwen3_32b_awq(s);
  test::TempDir d;
  ModelSpec m = resolve_model(embedded_graph(), {"", "Qwen/Qwen3-32B-AWQ@main", ""}, hub_settings(s, d));
  CHECK(m.origin == "hub");
  CHECK(m.id == "qwen3-32b");  // the record that lists the repo: its family's measurements stand for it
  REQUIRE(m.checkpoint);
  CHECK(m.checkpoint->format == "awq");
  CHECK(m.layers == 64);
  CHECK(m.params_b == Approx(32.76).epsilon(0.01));
  REQUIRE(m.shipped());
  CHECK(m.shipped()->format == "awq");
  CHECK(m.source.find("commit 0123456789ab") != std::string::npos);
  CHECK(m.checkpoint->read.size() == 4);  // config.json, the index, two shard headers
}

TEST_CASE("resolve: ORG/NAME:TAG reads that GGUF's header, a split file's parts together", "[model][resolve]") {
  test::HubServer s;
  test::serve_llama_gguf(s);
  test::TempDir d;
  ModelFiles f = read_model_files(std::string(test::kGgufRepo) + ":Q4_K_M", hub_settings(s, d));
  REQUIRE(f.checkpoint.gguf);
  CHECK(f.checkpoint.gguf->integer("llama.block_count") == 32);
  ModelFiles split = read_model_files(std::string(test::kGgufRepo) + ":Q2_K", hub_settings(s, d));
  CHECK(split.checkpoint.read.size() == 2);
  CHECK(split.checkpoint.tensors.size() == 32 * 9 + 3);
  CHECK_THROWS_WITH(read_model_files(test::kGgufRepo, hub_settings(s, d)),
                    Contains("3 GGUF files; name one as unsloth/Llama-3.1-8B-Instruct-GGUF:TAG (tags: Q2_K, Q4_K_M, Q8_0)"));
  CHECK_THROWS_WITH(read_model_files(std::string(test::kGgufRepo) + ":IQ1_S", hub_settings(s, d)), Contains("no GGUF file carries the tag \"IQ1_S\""));
}

TEST_CASE("resolve: a .gguf URL outside the Hub is read by Range, its size from Content-Range, the second time from the cache", "[model][resolve]") {
  test::HubServer s;
  test::serve_llama_gguf(s);
  test::TempDir d;
  // The file host of the fixture Hub, by another name than the endpoint's: a plain URL, not a Hub one.
  std::string url = "http://localhost:" + s.endpoint().substr(s.endpoint().rfind(':') + 1) + "/cdn/" + test::kGgufRepo + "/" + test::kGgufSha +
                    "/Llama-3.1-8B-Instruct-Q8_0.gguf";
  ModelFiles f = read_model_files(url, hub_settings(s, d));
  REQUIRE(f.checkpoint.gguf);
  CHECK(f.checkpoint.gguf->integer("general.file_type") == 7);
  CHECK(f.source.find(url) == 0);
  int before = s.requests();
  ModelFiles again = read_model_files(url, hub_settings(s, d));
  CHECK(again.checkpoint.tensors.size() == f.checkpoint.tensors.size());
  CHECK(s.requests() == before);
}

TEST_CASE("resolve: a name that is nothing known gets the nearest record ids", "[model][resolve]") {
  test::HubServer s;
  test::TempDir d;
  CHECK_THROWS_WITH(resolve_model(embedded_graph(), {"", "llama-3.1-8", ""}, hub_settings(s, d)), Contains("did you mean"));
  CHECK_THROWS_WITH(resolve_model(embedded_graph(), {"", "", ""}, hub_settings(s, d)), Contains("recommend needs a model"));
  CHECK(s.requests() == 0);
}

// Not run by default: `qsel_tests "[.serve]"` keeps the fixture Hub up for a
// minute and prints its endpoint, for trying the CLI by hand
// (HF_ENDPOINT=… qsel inspect unsloth/Llama-3.1-8B-Instruct-GGUF:Q4_K_M).
TEST_CASE("resolve: serve the fixture Hub by hand", "[.serve]") {
  test::HubServer s;
  test::serve_qwen3_32b_awq(s);
  test::serve_llama_gguf(s);
  test::serve_misbehaving(s);
  std::printf("HF_ENDPOINT=%s\n", s.endpoint().c_str());
  std::fflush(stdout);
  std::this_thread::sleep_for(std::chrono::seconds(std::getenv("QSEL_SERVE_S") ? std::atoi(std::getenv("QSEL_SERVE_S")) : 60));
}
