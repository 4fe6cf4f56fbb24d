// The JSON contracts of recommend and explain, checked against the JSON Schemas
// in schemas/output/ over a spread of queries.
#include <catch2/catch.hpp>

#include <fstream>

#include "qsel/loader/schema_set.h"
#include "support/fixtures.h"

using nlohmann::json;
using qsel::test::run_cli;

namespace {

qsel::Problems advice_violations(const std::string& schema_file, const json& doc) {
  std::ifstream in(qsel::test::source_dir() + "/schemas/output/" + schema_file);
  qsel::SchemaSet set({{"output", json::parse(in)}});
  return set.validate("output", doc, qsel::Marks{}, schema_file);
}

}  // namespace

TEST_CASE("advice_json: recommend --format json matches schemas/output/recommend.schema.json", "[rules][contract]") {
  std::vector<std::vector<std::string>> queries = {
      {"--gpu", "h100", "--model-size", "70b"},
      {"--gpu", "rtx-5090", "--model-size", "8b", "--kv-cache", "fp8"},
      {"--gpu", "mi355x", "--model", "deepseek-v3", "--count", "8"},
      {"--gpu", "l4", "--model-size", "8b", "--context", "128k", "--spec-decode", "mtp", "--prefix-caching"},
      {"--gpu", "apple-m3-max", "--model-size", "30b-a3b", "--portable"},
      {"--gpu", "gaudi3", "--model-size", "1.5b", "--batch", "32"}};
  for (auto q : queries) {
    q.insert(q.begin(), {"recommend", "--all", "--format", "json"});
    auto r = run_cli(q);
    INFO(q[4] << " " << r.err);
    REQUIRE((r.code == 0 || r.code == 1));
    for (const auto& p : advice_violations("recommend.schema.json", json::parse(r.out))) FAIL(p.message);
  }
}

TEST_CASE("advice_json: explain FORMAT --on matches schemas/output/explain-format.schema.json", "[rules][contract]") {
  for (const char* f : {"nvfp4", "awq", "gguf-q4-k-m", "bitnet-b1.58", "fp8-e4m3"})
    for (const char* on : {"sm120", "h100", "mi300x", "apple-m3-max"}) {
      auto r = run_cli({"explain", f, "--on", on, "--format", "json"});
      INFO(f << " on " << on << " " << r.err);
      REQUIRE(r.code == 0);
      for (const auto& p : advice_violations("explain-format.schema.json", json::parse(r.out))) FAIL(p.message);
    }
}

TEST_CASE("advice_json: the contract schema rejects output that breaks it", "[rules][contract]") {
  json bad = {{"accelerator", {{"id", "x"}}}, {"candidates", json::array({{{"path", "teleported"}}})}};
  CHECK(!advice_violations("recommend.schema.json", bad).empty());
}
