// The JSON contracts of recommend and explain, checked against the JSON Schemas
// in schemas/output/ over a spread of queries.
#include <catch2/catch.hpp>

#include <algorithm>
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

TEST_CASE("advice_json: every candidate says what it rests on, and the text says it for #1", "[rules][contract]") {
  auto j = json::parse(run_cli({"--format", "json", "recommend", "--gpu", "h100", "--model-size", "70b"}).out);
  REQUIRE(!j["candidates"].empty());
  for (const auto& c : j["candidates"]) {
    const json& on = c["rests_on"];
    CHECK(on["records"].size() >= on["draft"].size());
    CHECK(on["statement"].get<std::string>().rfind("rests on ", 0) == 0);
  }
  // The #1's format and engine are among the records it rests on.
  const json& top = j["candidates"][0];
  auto records = top["rests_on"]["records"];
  CHECK(std::find(records.begin(), records.end(), top["format"]) != records.end());
  auto text = run_cli({"--no-color", "recommend", "--gpu", "h100", "--model-size", "70b"}).out;
  CHECK(text.find("#1 rests on ") != std::string::npos);
  auto e = json::parse(run_cli({"--format", "json", "explain", "awq", "--on", "h100"}).out);
  CHECK(e["rests_on"]["statement"].get<std::string>().rfind("rests on ", 0) == 0);
}
