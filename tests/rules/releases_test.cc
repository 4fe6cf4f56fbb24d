// Rule: the format a model ships in comes first, and a published checkpoint is served as published only by an
// engine whose loader reads its config (src/rules/releases.cc), on the embedded corpus.
#include <catch2/catch.hpp>

#include "support/fixtures.h"

using nlohmann::json;
using qsel::test::run_cli;

namespace {
const json* candidate(const json& answer, const std::string& format, const std::string& engine) {
  for (const auto& c : answer["candidates"])
    if (c["format"] == format && c["engine"] == engine) return &c;
  return nullptr;
}

bool says(const json& c, const std::string& text) {
  for (const auto& w : c["why"])
    if (w.get<std::string>().find(text) != std::string::npos) return true;
  return false;
}
}  // namespace

TEST_CASE("releases: an AutoAWQ checkpoint is served as published by vLLM, not by TensorRT-LLM's loader", "[rules][releases]") {
  auto r = run_cli({"recommend", "--gpu", "a100-80gb", "--count", "3", "--model", "llama-3.1-405b", "--all", "--format", "json"});
  REQUIRE(r.code == 0);
  json a = json::parse(r.out);
  const json* vllm = candidate(a, "awq", "vllm");
  const json* trt = candidate(a, "awq", "trtllm");
  REQUIRE(vllm);
  REQUIRE(trt);
  CHECK((*vllm)["release"] == "hugging-quants/Meta-Llama-3.1-405B-Instruct-AWQ-INT4");
  CHECK((*trt)["release"].is_null());
  CHECK(says(*trt, "hugging-quants/Meta-Llama-3.1-405B-Instruct-AWQ-INT4 is published with quant_method awq, which trtllm's loader "
                   "does not read in awq (it reads modelopt, fp8, mxfp4, mxfp8, compressed-tensors, nvfp4): not served as published here; "
                   "make the checkpoint with NVIDIA ModelOpt"));
  // The published checkpoint ranks the engine that loads it first.
  CHECK(a["candidates"][0]["engine"] == "vllm");
  CHECK(a["candidates"][0]["release"] == "hugging-quants/Meta-Llama-3.1-405B-Instruct-AWQ-INT4");
}

TEST_CASE("releases: a ModelOpt checkpoint is one TensorRT-LLM serves as published", "[rules][releases]") {
  auto r = run_cli({"recommend", "--gpu", "h100", "--model", "llama-3.1-70b", "--engine", "trtllm", "--all", "--format", "json"});
  REQUIRE(r.code == 0);
  json a = json::parse(r.out);
  const json* fp8 = candidate(a, "fp8-per-tensor", "trtllm");
  REQUIRE(fp8);
  CHECK((*fp8)["release"] == "nvidia/Llama-3.1-70B-Instruct-FP8");
  CHECK_FALSE(says(*fp8, "loader does not read"));
  // An llm-compressor INT4 checkpoint is compressed-tensors too, but TensorRT-LLM reads only its FP8 and NVFP4 schemes.
  const json* w4 = candidate(a, "gptq", "trtllm");
  REQUIRE(w4);
  CHECK((*w4)["release"].is_null());
  CHECK(says(*w4, "RedHatAI/Meta-Llama-3.1-70B-Instruct-quantized.w4a16 is published with quant_method compressed-tensors, which "
                  "trtllm's loader does not read in gptq"));
  CHECK((*candidate(a, "gptq", "trtllm"))["release"].is_null());
}
