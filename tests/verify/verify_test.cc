// Real start-up logs from public reports (tests/fixtures/logs, sources in
// SOURCES.md) against the kernel the rules predict.
#include <catch2/catch.hpp>

#include "qsel/cli/context.h"
#include "qsel/verify/verify.h"
#include "support/fixtures.h"

using namespace qsel;

namespace {

std::string log_path(const std::string& name) { return test::source_dir() + "/tests/fixtures/logs/" + name; }

nlohmann::ordered_json verify(const std::string& log, const char* gpu, const char* format, std::vector<std::string> flags = {}) {
  Context ctx;
  const Graph& g = ctx.graph();
  VerifyRequest r;
  r.log = log_path(log);
  if (gpu) {
    Resolution a = g.resolve(gpu, Kind::Accelerator);
    REQUIRE(a);
    r.accelerator = a.record;
    r.target = g.find(a.record->str("target"));
  }
  if (format) {
    r.format = g.find(format);
    r.format_source = std::string("--quant ") + format;
  }
  r.flags = std::move(flags);
  return verify_log(g, r);
}

std::string kernels(const nlohmann::ordered_json& j) {
  std::string out;
  for (const auto& o : j["observed"]) out += (out.empty() ? "" : ",") + o["kernel"].get<std::string>();
  return out;
}

}  // namespace

TEST_CASE("verify: vLLM picks Marlin for GPTQ on Ada and Ampere, as predicted", "[rules][verify]") {
  for (const char* log : {"vllm-marlin-ada-rtx4090.log", "vllm-marlin-ampere-rtx3090.log"}) {
    INFO(log);
    auto j = verify(log, std::string(log).find("4090") != std::string::npos ? "rtx-4090" : "rtx-3090", "gptq");
    CHECK(j["engine"]["id"] == "vllm");
    CHECK(kernels(j) == "marlin");
    CHECK(j["predicted"]["kernel"] == "marlin");
    CHECK(j["verdict"] == "match");
  }
}

TEST_CASE("verify: the same Marlin log claimed for an H100 is a mismatch (Machete predicted)", "[rules][verify]") {
  auto j = verify("vllm-marlin-ada-rtx4090.log", "h100-sxm", "gptq");
  CHECK(j["predicted"]["kernel"] == "machete");
  CHECK(j["verdict"] == "mismatch");
  bool failed = false;
  for (const auto& c : j["checks"])
    failed = failed || (c["check"] == "kernel" && c["result"] == "fail" &&
                        c["text"] == "the log shows marlin (dequant); the rules predict machete (dequant path) for gptq on sm90");
  CHECK(failed);
}

TEST_CASE("verify: FP8 on an RTX 3090 goes through Marlin weight-only, as predicted", "[rules][verify]") {
  auto j = verify("vllm-fp8-marlin-ampere-rtx3090.log", "rtx-3090", "fp8-e4m3");
  CHECK(kernels(j) == "marlin-fp8");
  CHECK(j["verdict"] == "match");
}

TEST_CASE("verify: the 'no native FP4' warning is expected for a weight-only checkpoint, a mismatch for W4A4 on Blackwell", "[rules][verify]") {
  auto w4a16 = verify("vllm-nvfp4-marlin-fallback-warning.log", "rtx-pro-6000-blackwell", "nvfp4", {"checkpoint=w4a16"});
  CHECK(kernels(w4a16) == "marlin-fp4");
  CHECK(w4a16["verdict"] == "match");
  auto notice = std::find_if(w4a16["checks"].begin(), w4a16["checks"].end(), [](const auto& c) { return c["check"] == "notice"; });
  REQUIRE(notice != w4a16["checks"].end());
  CHECK((*notice)["result"] == "pass");
  CHECK((*notice)["text"].get<std::string>().rfind("lines 5, 6, 7: vLLM runs the FP4 weights through Marlin", 0) == 0);
  auto w4a4 = verify("vllm-nvfp4-marlin-fallback-warning.log", "b200", "nvfp4");
  CHECK(w4a4["verdict"] == "mismatch");
}

TEST_CASE("verify: llama.cpp: the GPU comes from the log's compute capability", "[rules][verify]") {
  auto j = verify("llamacpp-cuda-init-rtx4070.log", nullptr, "gguf-q4-k-m");
  CHECK(j["engine"]["id"] == "llama-cpp");
  CHECK(j["target"]["id"] == "sm89");
  CHECK(j["target"]["from"] == "the log: compute capability 8.9");
  CHECK(kernels(j) == "llama-cpp-mmq");
  CHECK(j["verdict"] == "match");
  auto cpu = verify("llamacpp-cpu-zero-offload.log", nullptr, "gguf-q4-k-m");
  CHECK(kernels(cpu) == "llama-cpp-cpu");
  CHECK(cpu["verdict"] == "unverified");  // no compute capability, no --gpu: nothing to compare with
  auto ftype = verify("llamacpp-model-ftype-oldformat.log", nullptr, nullptr);
  REQUIRE(ftype["format"].is_object());
  CHECK(ftype["format"]["id"] == "gguf-q4-k-m");
  CHECK(ftype["format"]["from"] == "the log: Q4_K - Medium");
}

TEST_CASE("verify: a log no engine record knows is unverified, with the reason", "[rules][verify]") {
  test::TempDir d;
  Context ctx;
  VerifyRequest r;
  r.log = d.write("x.log", "hello\nworld\n").string();
  auto j = verify_log(ctx.graph(), r);
  CHECK(j["verdict"] == "unverified");
  CHECK(j["engine"].is_null());
  CHECK(j["checks"][0]["text"] == "no line of the log is one an engine record knows; name it with --engine");
}

TEST_CASE("verify: an engine recognised only by its kernel line says so (no empty \"line 0\")", "[rules][verify]") {
  auto j = verify("vllm-gptoss-mxfp4-marlin-sm120.log", "rtx-pro-6000-blackwell", "mxfp4-moe");
  CHECK(j["engine"]["id"] == "vllm");
  CHECK(j["engine"]["detected_by"].get<std::string>().rfind("its kernel-selection line 3: ", 0) == 0);
}
