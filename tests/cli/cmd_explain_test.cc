// End-to-end: explain on the embedded corpus, and its agreement with recommend.
#include <catch2/catch.hpp>

#include <set>

#include "support/fixtures.h"

using qsel::test::run_cli;
using nlohmann::json;

namespace {
json explain(const std::vector<std::string>& args) {
  std::vector<std::string> a = {"explain", "--format", "json"};
  a.insert(a.end(), args.begin(), args.end());
  auto r = run_cli(a);
  INFO(r.err);
  REQUIRE(r.code == 0);
  return json::parse(r.out);
}
bool has(const json& arr, const std::string& s) { return std::find(arr.begin(), arr.end(), s) != arr.end(); }
}  // namespace

TEST_CASE("explain e2e: NVFP4 on sm120 is contested, with the TRT-LLM cell, the SGLang kernel and the kernel-record conflict", "[e2e][explain]") {
  json j = explain({"nvfp4", "--on", "sm120"});
  CHECK(j["verdict"] == "contested");
  bool trt = false;
  for (const auto& c : j["matrix_cells"]) trt = trt || (c["matrix"] == "trtllm-quant-matrix" && c["cell"] == "Y");
  CHECK(trt);
  bool sglang = false;
  for (const auto& k : j["kernels"]) sglang = sglang || (k["engine"] == "sglang" && k["kernel"] == "flashinfer-cutlass-fp4");
  CHECK(sglang);
  bool sm100a = false;
  for (const auto& c : j["conflicts"]) sm100a = sm100a || c.get<std::string>().rfind("sm120-vs-sm100a says", 0) == 0;
  CHECK(sm100a);
  CHECK(has(j["rules"], "rule-1"));
  CHECK(has(j["rules"], "rule-3"));
}

TEST_CASE("explain e2e: MXFP4 on H100 is emulated through Marlin, with the Rule 2 warning", "[e2e][explain]") {
  json j = explain({"mxfp4", "--on", "h100"});
  CHECK(j["verdict"] == "emulated");
  bool marlin = false;
  for (const auto& k : j["kernels"]) marlin = marlin || (k["kernel"] == "marlin-mxfp4" && k["path"] == "emulated");
  CHECK(marlin);
  REQUIRE(!j["warnings"].empty());
  CHECK(j["warnings"][0]["message"].get<std::string>().find("memory saving, no compute speedup") != std::string::npos);
}

TEST_CASE("explain e2e: GGUF Q4_K_M is not native on H100; BitNet cites Rule 7", "[e2e][explain]") {
  CHECK(explain({"gguf-q4-k-m", "--on", "h100"})["verdict"] != "native");
  json g = explain({"gguf-q4-k-m"});
  CHECK(g["rules"][0]["rule"] == "rule-5");
  CHECK(g["bpw"]["contested"] == true);
  json b = explain({"bitnet-b1.58"});
  CHECK(b["rules"][0]["rule"] == "rule-7");
  CHECK(explain({"bitnet-b1.58", "--on", "h100"})["verdict"] == "unsupported");
}

TEST_CASE("explain e2e: MLX affine is native on Apple", "[e2e][explain]") {
  CHECK(explain({"mlx-affine-4bit", "--on", "m3 max"})["verdict"] == "native");
}

TEST_CASE("explain e2e: a family name that spans different targets says so", "[e2e][explain]") {
  json j = explain({"nvfp4", "--on", "blackwell"});
  CHECK(j["kind"] == "format-family");
  CHECK(j["verdict"] == "differs");
  CHECK(has(j["targets"], "sm100"));
  CHECK(has(j["targets"], "sm120"));
}

TEST_CASE("explain e2e: rules, lint codes and other kinds", "[e2e][explain]") {
  json r = explain({"rule-2"});
  CHECK(r["kind"] == "rule");
  CHECK(r["doc"].get<std::string>().rfind("# Rule 2", 0) == 0);
  CHECK(!r["records"].empty());
  json lint = explain({"QS004"});
  CHECK(lint["kind"] == "lint-rule");
  CHECK(lint["rule"]["name"] == "kquant-group-size");
  CHECK(explain({"machete"})["targets"] == json::array({"sm90"}));
  CHECK(explain({"vllm"})["kernel_selection"].size() > 5);
  CHECK(explain({"llama-3.1-70b"})["kv_cache_batch_1"].size() == 3);
  CHECK(explain({"h100"})["verdicts"].contains("native"));
  auto bad = run_cli({"explain", "nvfp5"});
  CHECK(bad.code == 2);
  CHECK(bad.err.find("did you mean \"nvfp4\"") != std::string::npos);
  auto on = run_cli({"explain", "h100", "--on", "sm90"});
  CHECK(on.code == 2);
  CHECK(on.err == "qsel: error: --on applies to formats; h100-sxm is a accelerator\n");
}

TEST_CASE("explain e2e: explain and recommend cannot disagree about a format on a part", "[e2e][explain][consistency]") {
  for (const char* part : {"h100", "a100-80gb-sxm4", "rtx-5090", "rtx-4090", "v100", "mi300x", "b200", "apple-m3-max", "gaudi3", "arc-b580", "mi355x"}) {
    auto r = run_cli({"recommend", "--gpu", part, "--model", "qwen3-30b-a3b", "--all", "--format", "json"});
    REQUIRE((r.code == 0 || r.code == 1));
    json rec = json::parse(r.out);
    std::map<std::string, std::set<std::string>> paths;
    std::set<std::string> contested;
    for (const auto& c : rec["candidates"]) {
      if (c["engine"].is_null()) continue;
      paths[c["format"]].insert(c["path"]);
      if (c["contested"] == true) contested.insert(c["format"]);
    }
    json formats = json::parse(run_cli({"list", "formats", "--format", "json"}).out);
    for (const auto& f : formats["records"]) {
      std::string id = f["id"];
      if (f["regime"] == "kv-cache") continue;
      json e = explain({id, "--on", part});
      std::string v = e["verdict"];
      INFO(part << " " << id << " verdict " << v);
      if (v == "contested") CHECK(contested.count(id));
      else if (v == "native") CHECK((paths[id].count("native") || (paths[id].count("dequant") && !e["format_record"]["native_on"].empty())));
      else if (v == "emulated") CHECK((!paths[id].empty() && !paths[id].count("native")));
      else CHECK(paths[id].empty());
    }
  }
}
