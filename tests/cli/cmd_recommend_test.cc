// End-to-end: recommend on the embedded corpus agrees with the seeds on every
// case they decide, across NVIDIA Volta→Blackwell, AMD, Intel, Apple and a part
// with no quantization story.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "support/fixtures.h"
#include "support/hub_fixtures.h"

using qsel::test::run_cli;
using nlohmann::json;

namespace {

json recommend(const std::vector<std::string>& extra) {
  std::vector<std::string> args = {"recommend", "--format", "json", "--all"};
  args.insert(args.end(), extra.begin(), extra.end());
  auto r = run_cli(args);
  INFO(r.err);
  REQUIRE((r.code == 0 || r.code == 1));
  return json::parse(r.out);
}

const json* candidate(const json& j, const std::string& format, const std::string& engine) {
  for (const auto& c : j["candidates"])
    if (c["format"] == format && c["engine"] == engine) return &c;
  return nullptr;
}

bool excluded(const json& j, const std::string& format, const std::string& engine, const std::string& rule) {
  for (const auto& e : j["excluded"])
    if (e["format"] == format && (engine.empty() || e["engine"] == engine) && e["rule"] == rule) return true;
  return false;
}

bool any_kernel(const json& j, const std::string& kernel) {
  for (const auto& c : j["candidates"])
    if (c["kernel"] == kernel) return true;
  return false;
}

}  // namespace

TEST_CASE("recommend e2e: Hopper W4A16 goes through Machete in vLLM, the family default is said", "[e2e][recommend]") {
  json j = recommend({"--gpu", "h100", "--model-size", "70b"});
  CHECK(j["accelerator"]["id"] == "h100-sxm");
  CHECK(j["accelerator"]["target"] == "sm90");
  CHECK(j["accelerator"]["resolved"].get<std::string>().find("family default") != std::string::npos);
  CHECK(j["model"]["id"] == "llama-3.1-70b");
  const json* awq = candidate(j, "awq", "vllm");
  REQUIRE(awq);
  CHECK((*awq)["kernel"] == "machete");
  CHECK((*awq)["path"] == "dequant");
  CHECK((*awq)["fits"] == true);
  CHECK(excluded(j, "nvfp4", "trtllm", "rule-1"));
  CHECK(excluded(j, "bitnet-b1.58", "", "rule-7"));
  CHECK(candidate(j, "nvfp4", "vllm")->at("path") == "emulated");  // NVFP4 before Blackwell
  CHECK(candidate(j, "mxfp4", "vllm")->at("path") == "emulated");
  CHECK(j["candidates"][0]["fits"] == true);
}

TEST_CASE("recommend e2e: Ampere and Ada get Marlin, FP8 is emulated on Ampere", "[e2e][recommend]") {
  json a100 = recommend({"--gpu", "a100", "--model-size", "8b", "--engine", "vllm"});
  CHECK(a100["accelerator"]["target"] == "sm80");
  CHECK(candidate(a100, "awq", "vllm")->at("kernel") == "marlin");
  CHECK(candidate(a100, "fp8-e4m3", "vllm")->at("path") == "emulated");
  json ada = recommend({"--gpu", "rtx-4090", "--model-size", "8b", "--engine", "vllm"});
  CHECK(candidate(ada, "gptq", "vllm")->at("kernel") == "marlin");
}

TEST_CASE("recommend e2e: consumer Blackwell in TensorRT-LLM has NVFP4 and no AWQ/GPTQ, NVFP4 native, TRT-LLM unlisted there", "[e2e][recommend]") {
  json j = recommend({"--gpu", "rtx5090", "--model-size", "8b", "--engine", "trtllm"});
  CHECK(j["accelerator"]["target"] == "sm120");
  CHECK(excluded(j, "awq", "trtllm", "rule-1"));
  CHECK(excluded(j, "gptq", "trtllm", "rule-1"));
  const json* nv = candidate(j, "nvfp4", "trtllm");
  REQUIRE(nv);
  CHECK((*nv)["contested"] == false);  // the matrix's sm120 Y row is TensorRT-LLM's sm120 build
  CHECK((*nv)["path"] == "native");
  CHECK((*nv)["maturity"] == "unlisted");  // a GeForce card is not on TensorRT-LLM's supported-hardware list
  CHECK((*nv)["matrix_cells"][0]["cell"] == "Y");
  json vllm = recommend({"--gpu", "rtx5090", "--model-size", "8b", "--engine", "vllm"});
  CHECK(candidate(vllm, "awq", "vllm")->at("kernel") == "marlin");  // vLLM serves AWQ on Blackwell through Marlin
}

TEST_CASE("recommend e2e: vLLM's AMD docs say no AWQ/GPTQ, its ROCm code serves them: contested, both sides cited", "[e2e][recommend]") {
  json j = recommend({"--gpu", "mi300x", "--model-size", "70b", "--engine", "vllm"});
  CHECK(j["accelerator"]["target"] == "gfx942");
  CHECK(!any_kernel(j, "marlin"));  // Marlin has no ROCm path
  const json* awq = candidate(j, "awq", "vllm");
  REQUIRE(awq);
  CHECK((*awq)["kernel"] == "triton-awq");
  CHECK((*awq)["contested"] == true);
  CHECK((*awq)["matrix_cells"][0]["cell"] == ".");
  std::string conflict = (*awq)["conflicts"][0];
  CHECK(conflict.find("not supported\" on AMD GPU") != std::string::npos);
  CHECK(conflict.find("vllm/platforms/rocm.py") != std::string::npos);
  CHECK(candidate(j, "gptq", "vllm")->at("contested") == true);
  CHECK(j["candidates"][0]["contested"] == false);  // the contested rows rank after the uncontested ones of their tier
}

TEST_CASE("recommend e2e: on Volta GPTQ is the only one of AWQ/GPTQ/Marlin in vLLM", "[e2e][recommend]") {
  json j = recommend({"--gpu", "v100", "--model-size", "8b", "--engine", "vllm"});
  CHECK(candidate(j, "gptq", "vllm"));
  CHECK(excluded(j, "awq", "vllm", "rule-1"));
  CHECK(!any_kernel(j, "marlin"));
}

TEST_CASE("recommend e2e: Turing has no Marlin MXFP4 (the footnote narrows the cell)", "[e2e][recommend]") {
  json j = recommend({"--gpu", "t4", "--model-size", "8b", "--engine", "vllm"});
  CHECK(!candidate(j, "mxfp4", "vllm"));
  CHECK(excluded(j, "mxfp4", "vllm", "rule-1"));
}

TEST_CASE("recommend e2e: Blackwell ranks NVFP4 over MXFP4 unless --portable", "[e2e][recommend]") {
  // vLLM serves both on a Llama (TensorRT-LLM's per-model table gives MXFP4 to GPT-OSS alone).
  auto rank = [](const json& j, const std::string& f, const std::string& e) {
    const json* c = candidate(j, f, e);
    REQUIRE(c);
    return c->at("rank").get<int>();
  };
  json j = recommend({"--gpu", "b200", "--model-size", "70b", "--engine", "vllm"});
  REQUIRE(candidate(j, "nvfp4", "vllm"));
  CHECK(candidate(j, "nvfp4", "vllm")->at("path") == "native");
  CHECK(rank(j, "nvfp4", "vllm") < rank(j, "mxfp4", "vllm"));
  json p = recommend({"--gpu", "b200", "--model-size", "70b", "--engine", "vllm", "--portable"});
  CHECK(rank(p, "mxfp4", "vllm") < rank(p, "nvfp4", "vllm"));
  json t = recommend({"--gpu", "b200", "--model-size", "70b", "--engine", "trtllm"});
  CHECK_FALSE(candidate(t, "mxfp4", "trtllm"));
}

TEST_CASE("recommend e2e: MLX affine on Apple, Neural Compressor on Gaudi, Arc through vLLM's Intel row", "[e2e][recommend]") {
  json mac = recommend({"--gpu", "m3 max", "--model-size", "8b"});
  CHECK(mac["accelerator"]["id"] == "apple-m3-max");
  CHECK(candidate(mac, "mlx-affine-4bit", "mlx-lm")->at("kernel") == "mlx-qmm");
  json gaudi = recommend({"--gpu", "gaudi3", "--model-size", "8b"});
  CHECK(candidate(gaudi, "intel-neural-compressor", "vllm-gaudi"));
  json arc = recommend({"--gpu", "arc-b580", "--model-size", "8b", "--engine", "vllm"});
  CHECK(candidate(arc, "awq", "vllm"));
}

TEST_CASE("recommend e2e: nothing is invented where no engine runs, an unlisted part says the census is silent", "[e2e][recommend]") {
  // Groq's LPU is reached through its cloud API only: no engine record has a backend for it.
  json lpu = recommend({"--gpu", "groq-lpu", "--model-size", "8b"});
  CHECK(lpu["candidates"].empty());
  CHECK(lpu["unknowns"][0].get<std::string>().rfind("no engine record runs on", 0) == 0);
  // A TPU is served by vLLM's TPU backend, and only by it.
  json tpu = recommend({"--gpu", "tpu-v5e", "--model-size", "8b"});
  REQUIRE(!tpu["candidates"].empty());
  for (const auto& c : tpu["candidates"]) CHECK(c["engine"] == "vllm-tpu");
  // No format record lists the Quadro GV100 (the census is silent on it), yet the engines'
  // kernel selection covers Volta: candidates come from that alone, and the answer says so.
  json gv = recommend({"--gpu", "quadro-gv100", "--model-size", "8b"});
  CHECK(!gv["candidates"].empty());
  bool census = false;
  for (const auto& u : gv["unknowns"]) census = census || u.get<std::string>().rfind("no format record lists quadro-gv100", 0) == 0;
  CHECK(census);
}

TEST_CASE("recommend e2e: 8-bit KV is offered to fit a long context, never with sliding window + spec decode", "[e2e][recommend]") {
  json j = recommend({"--gpu", "l4", "--model-size", "8b", "--context", "131072", "--engine", "vllm"});
  const json* awq = candidate(j, "awq", "vllm");
  REQUIRE(awq);
  CHECK((*awq)["fits"] == true);
  CHECK((*awq)["kv_dtype"] == "fp8-kv");
  CHECK(std::find((*awq)["rules"].begin(), (*awq)["rules"].end(), "rule-6") != (*awq)["rules"].end());
  json sw = recommend({"--gpu", "l4", "--model", "gpt-oss-20b", "--context", "131072", "--spec-decode", "draft", "--engine", "vllm"});
  for (const auto& c : sw["candidates"]) CHECK(c["kv_dtype"] != "fp8-kv");
}

TEST_CASE("recommend e2e: GGUF is sized on measured bpw and the sizing lever is printed", "[e2e][recommend]") {
  json j = recommend({"--gpu", "rtx-4090", "--model-size", "70b", "--engine", "llama-cpp"});
  const json* q4 = candidate(j, "gguf-q4-k-m", "llama-cpp");
  REQUIRE(q4);
  CHECK((*q4)["bpw_source"] == "measured on llama-3.1-70b");  // the reference 70B's own file, not the 8B's
  CHECK((*q4)["path"] == "dequant");
  bool lever = false, pr_flag = false;
  for (const auto& n : j["notes"]) {
    lever = lever || n.get<std::string>().find("the largest named type at or under it is") != std::string::npos;
    pr_flag = pr_flag || n.get<std::string>().find("--target-bpw") != std::string::npos;
  }
  CHECK(lever);
  CHECK_FALSE(pr_flag);  // only an unmerged llama.cpp pull request has it (issue 39)
}

TEST_CASE("recommend e2e: bad input exits 2 with one clear line", "[e2e][recommend]") {
  auto gpu = run_cli({"recommend", "--gpu", "h100-sxn", "--model-size", "8b"});
  CHECK(gpu.code == 2);
  CHECK(gpu.err.rfind("qsel: error: unknown GPU \"h100-sxn\"; did you mean \"h100-sxm\"? Parts with that model number: ", 0) == 0);
  CHECK(std::count(gpu.err.begin(), gpu.err.end(), '\n') == 1);
  auto size = run_cli({"recommend", "--gpu", "h100", "--model-size", "huge"});
  CHECK(size.code == 2);
  CHECK(size.err == "qsel: error: cannot read model size \"huge\"; expected a size like 70b, 8B, 1.5b, 1t, 8x7b or 235b-a22b\n");
  auto count = run_cli({"recommend", "--gpu", "h100", "--model-size", "8b", "--count", "0"});
  CHECK(count.code == 2);
  CHECK(count.err == "qsel: error: --count: expected a number of GPUs from 1 to 1024, got \"0\"\n");
  qsel::test::TempDir dir;
  auto cfg = dir.write("config.json", "{\"num_hidden_layers\": 2,,}");
  auto bad = run_cli({"recommend", "--gpu", "h100", "--model-config", cfg.string()});
  CHECK(bad.code == 2);
  CHECK(bad.err.rfind("qsel: error: " + cfg.string() + ":1:", 0) == 0);
  auto none = run_cli({"recommend", "--gpu", "h100"});
  CHECK(none.code == 2);
  CHECK(none.err == "qsel: error: recommend needs a model: --model-size 70b, --model ID or --model-config config.json\n");
  auto ctx = run_cli({"recommend", "--gpu", "h100", "--model-size", "8b", "--context", "lots"});
  CHECK(ctx.code == 2);
  // a package of two GCDs counts two GPUs: 1024 packages are 2048, past the cap --count itself keeps
  auto gcds = run_cli({"recommend", "--gpu", "mi250x", "--model-size", "8b", "--count", "1024"});
  CHECK(gcds.code == 2);
  CHECK(gcds.err == "qsel: error: 2048 GPUs (--count x devices per package): qsel sizes at most 1024\n");
}

namespace {

// PATH for the duration of a test: --gpu auto runs the tools found there.
struct ScopedPath {
  std::string old;
  explicit ScopedPath(const std::string& dir) : old(std::getenv("PATH") ? std::getenv("PATH") : "") { setenv("PATH", dir.c_str(), 1); }
  ~ScopedPath() { setenv("PATH", old.c_str(), 1); }
};

}  // namespace

TEST_CASE("recommend e2e: --gpu auto detects the GPUs and their count, identical GPUs set --count", "[e2e][recommend][auto]") {
  qsel::test::TempDir bin;
  auto tool = bin.write("nvidia-smi", "#!/bin/sh\n/bin/cat '" + qsel::test::source_dir() + "/tests/fixtures/detect/nvidia-smi/rtx-3090-x2.txt'\n");
  chmod(tool.c_str(), 0755);
  ScopedPath path(bin.path().string());
  json j = recommend({"--gpu", "auto", "--model-size", "70b"});
  CHECK(j["accelerator"]["id"] == "rtx-3090");
  CHECK(j["accelerator"]["count"] == 2);
  CHECK(j["accelerator"]["resolved"] == "detected by nvidia-smi: 2 x \"NVIDIA GeForce RTX 3090\" (24576 MiB) → rtx-3090");
  json one = recommend({"--gpu", "auto", "--count", "1", "--model-size", "8b"});
  CHECK(one["accelerator"]["count"] == 1);
  CHECK(one["accelerator"]["resolved"].get<std::string>().find("; --count 1 as given") != std::string::npos);
  auto text = run_cli({"explain", "nvfp4", "--on", "auto", "--no-color"});
  CHECK(text.code == 0);
  CHECK(text.out.find("sm86") != std::string::npos);
}

TEST_CASE("recommend e2e: --gpu auto finding 1,100 GPUs is held to the --count cap", "[e2e][recommend][auto]") {
  qsel::test::TempDir bin;
  std::string table = "| GPU  Name                 Persistence-M | Bus-Id          Disp.A | Volatile Uncorr. ECC |\n"
                      "|=========================================+========================+======================|\n";
  for (int i = 0; i < 1100; ++i)
    table += fmt::format("| {:3d}  NVIDIA GeForce RTX 3090        On  |   00000000:41:00.0 Off |                  N/A |\n"
                         "| 30%   30C    P8             30W /  350W |       2MiB /  24576MiB |      0%      Default |\n",
                         i);
  bin.write("table.txt", table);
  auto tool = bin.write("nvidia-smi", "#!/bin/sh\n/bin/cat '" + (bin.path() / "table.txt").string() + "'\n");
  chmod(tool.c_str(), 0755);
  ScopedPath path(bin.path().string());
  auto r = run_cli({"recommend", "--gpu", "auto", "--model-size", "8b"});
  CHECK(r.code == 2);
  CHECK(r.err == "qsel: error: 1100 GPUs (as --gpu auto found them): qsel sizes at most 1024\n");
}

TEST_CASE("recommend e2e: --gpu auto with no GPU tool exits 2 and says what was tried", "[e2e][recommend][auto]") {
  qsel::test::TempDir empty;
  ScopedPath path(empty.path().string());
  auto r = run_cli({"recommend", "--gpu", "auto", "--model-size", "8b"});
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  CHECK(r.err == "qsel: error: --gpu auto found no GPU (nvidia-smi: not installed; amd-smi: not installed; rocm-smi: not installed; "
                 "sysctl: not installed; system_profiler: not installed); name the part with --gpu NAME, or describe it with --gpu "
                 "custom --vram GiB --target TARGET\n");
}

TEST_CASE("recommend e2e: a user-described part runs every rule and says whose figures they are", "[e2e][recommend][custom]") {
  // Engines whose support lists name parts rather than targets (TensorRT-LLM's hardware list) judge a described part
  // by its target alone, so the comparison with a real 3090 leaves them out.
  json j = recommend({"--gpu", "custom", "--vram", "24", "--bandwidth", "936", "--target", "sm86", "--model-size", "32b", "--engine",
                      "vllm,sglang,llama-cpp"});
  CHECK(j["accelerator"]["id"] == "custom");
  CHECK(j["accelerator"]["user_described"] == true);
  CHECK(j["accelerator"]["target"] == "sm86");
  CHECK(j["accelerator"]["memory_bandwidth_gbs"] == 936);
  json rtx3090 = recommend({"--gpu", "rtx-3090", "--model-size", "32b", "--engine", "vllm,sglang,llama-cpp"});
  // the same target and memory as a 3090: the same kernels and the same fits (the 3090's driver total is a little different)
  REQUIRE(j["candidates"].size() == rtx3090["candidates"].size());
  for (std::size_t i = 0; i < 6; ++i) {
    CHECK(j["candidates"][i]["format"] == rtx3090["candidates"][i]["format"]);
    CHECK(j["candidates"][i]["kernel"] == rtx3090["candidates"][i]["kernel"]);
  }
  CHECK(j["candidates"][0]["budget"]["statement"].get<std::string>().find("24 GiB as given; the driver's total is unknown and may be a little less") !=
        std::string::npos);
  auto text = run_cli({"recommend", "--gpu", "custom", "--vram", "24", "--target", "sm86", "--model-size", "8b", "--no-color"});
  CHECK(text.out.rfind("GPU    user-described GPU (custom, sm86, 24 GiB = 25.8 GB, bandwidth unknown)\n"
                       "       user-described part: 24 GiB (--vram), sm86 (--target); every rule runs on sm86's facts, and\n"
                       "       no record checks these figures\n", 0) == 0);
  CHECK(std::find(j["unknowns"].begin(), j["unknowns"].end(),
                  "a described part is on no format record's list: what runs there comes from engine kernel selection on sm86 only") !=
        j["unknowns"].end());
  auto missing = run_cli({"recommend", "--gpu", "custom", "--vram", "24", "--model-size", "8b"});
  CHECK(missing.code == 2);
  auto negative = run_cli({"recommend", "--gpu", "custom", "--vram", "-3", "--target", "sm86", "--model-size", "8b"});
  CHECK(negative.code == 2);
}

TEST_CASE("recommend e2e: text and markdown forms carry the same answer", "[e2e][recommend]") {
  auto text = run_cli({"recommend", "--gpu", "h100", "--model-size", "70b", "--engine", "vllm", "--no-color"});
  REQUIRE(text.code == 0);
  CHECK(text.out.rfind("GPU    NVIDIA H100", 0) == 0);
  CHECK(text.out.find("After deploying, verify (Rule 2):") != std::string::npos);
  CHECK(text.out.find("Excluded") != std::string::npos);
  CHECK(text.err.empty());
  auto md = run_cli({"recommend", "--gpu", "h100", "--model-size", "70b", "--engine", "vllm", "--format", "markdown"});
  REQUIRE(md.code == 0);
  CHECK(md.out.rfind("# qsel recommendation", 0) == 0);
  CHECK(md.out.find("| # | format | engine |") != std::string::npos);
}

TEST_CASE("recommend e2e: a model that fits nowhere exits 1", "[e2e][recommend]") {
  auto r = run_cli({"recommend", "--gpu", "l4", "--model-size", "405b", "--format", "json"});
  CHECK(r.code == 1);
  CHECK(json::parse(r.out)["candidates"][0]["fits"] == false);
}

TEST_CASE("recommend e2e: memory as engines allocate it (issue cases)", "[e2e][recommend][memory]") {
  // vLLM's budget is 0.9 x the driver's 81,559 MiB on an H100, less its own overheads; the BF16 baseline has an engine.
  json h = recommend({"--gpu", "h100", "--model", "qwen3-32b", "--context", "32k", "--engine", "vllm", "--kv-cache", "bf16"});
  const json* bf16 = candidate(h, "bf16", "vllm");
  REQUIRE(bf16);
  CHECK((*bf16)["budget"]["total_gb"].get<double>() == Approx(85.52).epsilon(0.001));
  CHECK((*bf16)["budget"]["fraction"] == 0.9);
  // Qwen3-32B BF16 at 32K does not fit one H100 in vLLM at its defaults (it does at 16K): only with fewer concurrent
  // sequences, whose profiling peak (over 5 GB at 1024 sequences) shrinks with them.
  CHECK((*bf16)["fit"] == "tight");
  CHECK((*bf16)["setting"].get<std::string>().rfind("--max-num-seqs ", 0) == 0);
  CHECK((*bf16)["budget"]["activation_gb"].get<double>() < 5);
  json k16 = recommend({"--gpu", "h100", "--model", "qwen3-32b", "--context", "16k", "--engine", "vllm", "--kv-cache", "bf16"});
  CHECK(candidate(k16, "bf16", "vllm")->at("fits") == true);
  // A 64 GB Mac gives the GPU its Metal working set (3/4): 70B Q6_K and Q5_K_M no longer fit.
  json mac = recommend({"--gpu", "m4-pro", "--model-size", "70b", "--engine", "llama-cpp"});
  CHECK(mac["accelerator"]["id"] == "apple-m4-pro");
  CHECK(candidate(mac, "gguf-q6-k", "llama-cpp")->at("fits") == false);
  CHECK(candidate(mac, "gguf-q5-k-m", "llama-cpp")->at("fits") == false);
  CHECK(candidate(mac, "gguf-q4-k-m", "llama-cpp")->at("fits") == true);
  // 8x22b is Mixtral 8x22B: 141B / 39B, not 176B / 16.5B.
  json mx = recommend({"--gpu", "h100", "--count", "4", "--model-size", "8x22b"});
  CHECK(mx["model"]["params_b"].get<double>() == Approx(140.62));
  CHECK(mx["model"]["active_params_b"].get<double>() == Approx(39.15));
}

TEST_CASE("recommend e2e: the Rule 5 lever stays inside the GGUF range, nothing fits names the --count that would", "[e2e][recommend][memory]") {
  auto lever = [](const json& j) {
    for (const auto& n : j["notes"])
      if (n.get<std::string>().rfind("Rule 5", 0) == 0) return n.get<std::string>();
    return std::string();
  };
  json mac = recommend({"--gpu", "m3 max", "--model-size", "8b", "--engine", "llama-cpp"});
  CHECK(lever(mac).find("every GGUF type fits") != std::string::npos);  // never "--target-bpw 126.92"
  json t4 = recommend({"--gpu", "t4", "--model-size", "405b"});
  CHECK(lever(t4).find("not even the smallest GGUF type") != std::string::npos);  // never "--target-bpw 0.23"
  bool hint = false;
  for (const auto& n : t4["notes"]) hint = hint || n.get<std::string>().find("the smallest GPU count") != std::string::npos;
  CHECK(hint);
  auto r = run_cli({"recommend", "--gpu", "t4", "--model-size", "405b"});
  CHECK(r.code == 1);
  CHECK(r.out.find("--count 32") != std::string::npos);
}

TEST_CASE("recommend e2e: llama.cpp's Q8_0 KV cache before moving layers to system RAM", "[e2e][recommend][memory]") {
  // Qwen3-32B at 32K on a 24 GB card: with a 16-bit cache Q4_K_M would go partly to RAM; with -ctk/-ctv q8_0 it
  // all stays on the GPU, and the cache's measured cost is added to the weights'.
  json r = recommend({"--gpu", "rtx-3090", "--model", "qwen3-32b", "--engine", "llama-cpp", "--context", "32k"});
  const json& top = r["candidates"][0];
  CHECK(top["format"] == "gguf-q4-k-m");
  CHECK(top["fit"] == "yes");
  CHECK(top["kv_dtype"] == "gguf-kv-q8-0");
  CHECK(top["quality"]["statement"].get<std::string>().find("with the gguf-kv-q8-0 cache: + KLD 0.00098") != std::string::npos);
  // Without the cache option (16-bit asked for), the same file is an offload plan.
  json f16 = recommend({"--gpu", "rtx-3090", "--model", "qwen3-32b", "--engine", "llama-cpp", "--context", "32k", "--kv-cache", "fp16"});
  const json* q4 = candidate(f16, "gguf-q4-k-m", "llama-cpp");
  REQUIRE(q4);
  CHECK((*q4)["fit"] == "offload");
}

TEST_CASE("recommend e2e: an offload plan pays for the speed it gives up", "[e2e][recommend][memory]") {
  // A 24B on a 16 GB card: Q4_K_M on the GPU (~44 tok/s) before Q6_K with a fifth in RAM (~10 tok/s).
  json r = recommend({"--gpu", "rtx-5080", "--model", "mistral-small-3.2-24b", "--engine", "llama-cpp"});
  CHECK(r["candidates"][0]["fit"] == "yes");
  // A 70B on a 24 GB card with 64 GB of RAM: a 4- or 5-bit plan partly in RAM, never Q2_K nor a 2-bit file on the GPU.
  json big = recommend({"--gpu", "rtx-4090", "--ram", "64", "--model-size", "70b", "--engine", "llama-cpp"});
  const json& top = big["candidates"][0];
  CHECK(top["fit"] == "offload");
  CHECK(top["placement"]["kind"] == "layers");
  std::string f = top["format"].get<std::string>();
  CHECK((f.find("q4") != std::string::npos || f.find("q5") != std::string::npos));
  CHECK(!big["tradeoffs"].empty());
}

TEST_CASE("recommend: models named as the Hub names them (README examples)", "[cli][recommend][hub]") {
  qsel::test::HubServer s;
  qsel::test::serve_qwen3_32b_awq(s);
  qsel::test::TempDir cache;
  std::string env = qsel::test::hub_env(s, cache);
  SECTION("a repo a record lists: the record, no request") {
    auto r = qsel::test::run_binary_env(env, "recommend --gpu rtx-4090 --model meta-llama/Llama-3.1-8B-Instruct --format json");
    INFO(r.err);
    REQUIRE(r.code == 0);
    auto j = nlohmann::json::parse(r.out);
    CHECK(j["model"]["id"] == "llama-3.1-8b");
    CHECK(j["model"]["origin"] == "record");
    CHECK(s.requests() == 0);
  }
  SECTION("a checkpoint read from the Hub is served as shipped AWQ; the second query makes no request") {
    auto r = qsel::test::run_binary_env(env, "recommend --gpu rtx-4090 --model Qwen/Qwen3-32B-AWQ@main --format json");
    INFO(r.err);
    REQUIRE(r.code == 0);
    auto j = nlohmann::json::parse(r.out);
    CHECK(j["model"]["origin"] == "hub");
    CHECK(j["model"]["checkpoint"]["format"] == "awq");
    CHECK(j["candidates"][0]["format"] == "awq");
    CHECK(j["candidates"][0]["shipped"] == true);
    int first = s.requests();
    CHECK(first == 9);  // the file list, then config.json, the index and two shard headers: each a redirect and its answer
    auto again = qsel::test::run_binary_env(env, "recommend --gpu rtx-4090 --model Qwen/Qwen3-32B-AWQ@main --format json");
    CHECK(again.code == 0);
    auto k = nlohmann::json::parse(again.out);
    CHECK(k["candidates"] == j["candidates"]);
    CHECK(k["model"]["source"].get<std::string>().find("0 request(s), 5 answer(s) from the cache") != std::string::npos);
    CHECK(s.requests() == first);
    auto offline = qsel::test::run_binary_env(env, "--offline recommend --gpu rtx-4090 --model Qwen/Qwen3-32B-AWQ@main --format json");
    CHECK(offline.code == 0);
    CHECK(s.requests() == first);
  }
  SECTION("--offline with nothing cached is one line, exit 2") {
    auto r = qsel::test::run_binary_env(env, "--offline recommend --gpu rtx-4090 --model Qwen/Qwen3-32B-AWQ@main");
    CHECK(r.code == 2);
    CHECK(r.err.find("Qwen/Qwen3-32B-AWQ@main: not in the cache (") == 0 + std::string("qsel: error: ").size());
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK(s.requests() == 0);
  }
}

namespace {

// The command of `role` a candidate prints ("" when none).
std::string command_of(const json& c, const std::string& role) {
  for (const auto& x : c.value("commands", json::array()))
    if (x["role"] == role) return x["command"];
  return "";
}

bool has_note(const json& c, const std::string& part) {
  for (const auto& n : c.value("memory_notes", json::array()))
    if (n.get<std::string>().find(part) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("recommend: a GGUF repo named on the Hub prints the files its list holds", "[cli][recommend][hub]") {
  qsel::test::HubServer s;
  qsel::test::serve_llama_gguf(s);
  qsel::test::serve_gguf_listings(s);
  qsel::test::TempDir cache;
  std::string env = qsel::test::hub_env(s, cache);
  auto ask = [&](const std::string& model, const std::string& extra = "") {
    auto r = qsel::test::run_binary_env("cd " + cache.path().string() + " && " + env,
                                        "recommend --gpu rtx-4090 --engine llama-cpp --all --format json --model '" + model + "' " + extra);
    INFO(r.err);
    REQUIRE(r.code == 0);
    json j = json::parse(r.out);
    for (const auto& c : j["candidates"])
      for (const auto& x : c.value("commands", json::array())) CHECK(x["command"].get<std::string>().find("LLAMA_FTYPE") == std::string::npos);
    return j;
  };
  SECTION("single files and a split file in a folder, exact names; a type it lacks is a file you quantize yourself") {
    json j = ask(qsel::test::kGgufRepo);
    CHECK(j["model"]["origin"] == "hub");
    CHECK(j["model"]["hub"]["types"] == json::array({"Q2_K", "Q4_K_M", "Q8_0"}));
    CHECK(j["model"]["hub"]["commit"] == qsel::test::kGgufSha);
    const json* q4 = candidate(j, "gguf-q4-k-m", "llama-cpp");
    REQUIRE(q4);
    CHECK(command_of(*q4, "run").rfind("llama-server -m Llama-3.1-8B-Instruct-Q4_K_M.gguf -fa on", 0) == 0);
    CHECK(command_of(*q4, "hub").rfind("llama-server -hf unsloth/Llama-3.1-8B-Instruct-GGUF:Q4_K_M -fa on", 0) == 0);
    CHECK((*q4)["release"] == qsel::test::kGgufRepo);
    const json* q2 = candidate(j, "gguf-q2-k", "llama-cpp");
    REQUIRE(q2);
    CHECK(command_of(*q2, "run").rfind("llama-server -m Q2_K/Llama-3.1-8B-Instruct-Q2_K-00001-of-00002.gguf ", 0) == 0);
    CHECK(has_note(*q2, "the first of 2 parts"));
    const json* q5 = candidate(j, "gguf-q5-k-m", "llama-cpp");
    REQUIRE(q5);
    CHECK(command_of(*q5, "run").rfind("llama-server -m Llama-3.1-8B-Instruct-Q5_K_M.gguf ", 0) == 0);
    CHECK(command_of(*q5, "hub").empty());
    CHECK(has_note(*q5, "unsloth/Llama-3.1-8B-Instruct-GGUF holds no Q5_K_M file (it holds Q2_K, Q4_K_M, Q8_0): "
                        "Llama-3.1-8B-Instruct-Q5_K_M.gguf is a file you quantize yourself"));
    CHECK((*q5)["release"].is_null());
    // The Q8_0 file is sized from its listed size, not the type's nominal bits.
    const json* q8 = candidate(j, "gguf-q8-0", "llama-cpp");
    REQUIRE(q8);
    CHECK(q8->dump().find("the published file of unsloth/Llama-3.1-8B-Instruct-GGUF") != std::string::npos);
  }
  SECTION("a repo without the best type: the top plan is a file to make, the repo's own files are named") {
    json j = ask(qsel::test::kShortRepo);
    CHECK(j["model"]["hub"]["types"] == json::array({"Q2_K", "Q3_K_S"}));
    json top;
    for (const auto& c : j["candidates"])
      if (top.is_null() && c["format"].get<std::string>().rfind("gguf-", 0) == 0) top = c;  // the best GGUF plan
    REQUIRE(top.is_object());
    std::string f = top["format"];
    CHECK(f != "gguf-q2-k");
    CHECK(f != "gguf-q3-k-s");
    CHECK(has_note(top, "someone/Llama-3.1-8B-Instruct-small-GGUF holds no "));
    CHECK(has_note(top, "is a file you quantize yourself"));
    const json* q3 = candidate(j, "gguf-q3-k-s", "llama-cpp");
    REQUIRE(q3);
    CHECK(command_of(*q3, "run").rfind("llama-server -m Llama-3.1-8B-Instruct-Q3_K_S.gguf ", 0) == 0);
  }
  SECTION("odd names are quoted for the shell, an escape sequence is never printed, nothing is written by their names") {
    json j = ask(qsel::test::kOddRepo);
    CHECK(j["model"]["hub"]["types"] == json::array({"Q4_K_M", "Q5_K_M", "Q8_0"}));  // not Q6_K (an escape), Q3_K_M (../), Q4_0 (mmproj)
    CHECK(command_of(*candidate(j, "gguf-q4-k-m", "llama-cpp"), "run").rfind("llama-server -m 'My Model-Q4_K_M.gguf' ", 0) == 0);
    CHECK(command_of(*candidate(j, "gguf-q8-0", "llama-cpp"), "run").rfind("llama-server -m '\xd0\x9c\xd0\xbe\xd0\xb4\xd0\xb5\xd0\xbb\xd1\x8c-Q8_0.gguf' ", 0) == 0);
    CHECK(command_of(*candidate(j, "gguf-q5-k-m", "llama-cpp"), "run").rfind("llama-server -m 'sub dir/it'\\''s $(touch pwned)-Q5_K_M.gguf' ", 0) == 0);
    const json* q6 = candidate(j, "gguf-q6-k", "llama-cpp");
    REQUIRE(q6);
    CHECK(command_of(*q6, "run").rfind("llama-server -m 'My Model-Q6_K.gguf' ", 0) == 0);
    auto text = qsel::test::run_binary_env("cd " + cache.path().string() + " && " + env,
                                           std::string("recommend --gpu rtx-4090 --engine llama-cpp --all --model ") + qsel::test::kOddRepo);
    CHECK(text.code == 0);
    CHECK(text.out.find('\x1b') == std::string::npos);
    INFO(text.out);
    // #1: the repo's own Q8_0 file (a local runner takes the lossless 8-bit over the 16-bit file at batch 1), quoted for the shell
    CHECK(text.out.find("-m '\xd0\x9c\xd0\xbe\xd0\xb4\xd0\xb5\xd0\xbb\xd1\x8c-Q8_0.gguf'") != std::string::npos);
    CHECK(!std::filesystem::exists(cache.path() / "pwned"));
    for (const auto& e : std::filesystem::recursive_directory_iterator(cache.path())) {
      std::string name = e.path().filename().string();
      INFO(name);
      CHECK(std::all_of(name.begin(), name.end(), [](unsigned char ch) { return std::isalnum(ch) || std::strchr("._-%@", ch); }));
    }
  }
  SECTION("a repo a model record lists: its file list only (one request), then the cache") {
    json j = ask(qsel::test::kRecordGguf);
    CHECK(j["model"]["origin"] == "record");
    CHECK(j["model"]["id"] == "deepseek-r1-distill-llama-8b");
    CHECK(j["model"]["hub"]["types"] == json::array({"Q4_K_M", "Q8_0"}));
    CHECK(s.requests() == 1);
    const json* q8 = candidate(j, "gguf-q8-0", "llama-cpp");
    REQUIRE(q8);
    CHECK(command_of(*q8, "run").rfind("llama-server -m DeepSeek-R1-Distill-Llama-8B-Q8_0.gguf ", 0) == 0);
    CHECK(command_of(*q8, "hub").rfind("llama-server -hf unsloth/DeepSeek-R1-Distill-Llama-8B-GGUF:Q8_0 ", 0) == 0);
    json again = ask(qsel::test::kRecordGguf);
    CHECK(again["candidates"] == j["candidates"]);
    CHECK(s.requests() == 1);
  }
}

TEST_CASE("recommend: a Hub that cannot be reached still answers a repo a record lists, with the publishers' names and a note", "[cli][recommend][hub]") {
  std::string endpoint;
  {
    qsel::test::HubServer gone;  // its port, closed again: the connection is refused
    endpoint = gone.endpoint();
  }
  qsel::test::TempDir cache;
  std::string env = fmt::format("env -u HF_TOKEN -u HUGGING_FACE_HUB_TOKEN -u HF_HUB_OFFLINE HF_ENDPOINT={} XDG_CACHE_HOME={} HF_HOME={} ",
                                endpoint, (cache.path() / "cache").string(), (cache.path() / "hf").string());
  auto r = qsel::test::run_binary_env(env, std::string("recommend --gpu rtx-4090 --engine llama-cpp --all --format json --model ") +
                                               qsel::test::kRecordGguf);
  INFO(r.err);
  REQUIRE(r.code == 0);
  json j = json::parse(r.out);
  CHECK(j["model"]["id"] == "deepseek-r1-distill-llama-8b");
  CHECK(j["model"]["hub"]["problem"].is_string());
  bool noted = false;
  for (const auto& n : j["model"]["notes"]) noted = noted || n.get<std::string>().find("its file list could not be read") != std::string::npos;
  CHECK(noted);
  const json* q8 = candidate(j, "gguf-q8-0", "llama-cpp");
  REQUIRE(q8);
  CHECK(command_of(*q8, "run").rfind("llama-server -m DeepSeek-R1-Distill-Llama-8B-Q8_0.gguf ", 0) == 0);
  CHECK(has_note(*q8, "is the name the common publishers give one"));
  const json* q4 = candidate(j, "gguf-q4-k-m", "llama-cpp");  // the release the record lists: llama.cpp fetches it itself
  REQUIRE(q4);
  CHECK(command_of(*q4, "run").rfind("llama-server -hf unsloth/DeepSeek-R1-Distill-Llama-8B-GGUF:Q4_K_M ", 0) == 0);
}

TEST_CASE("recommend e2e: --vram-free sizes from the memory free and is refused past the card", "[e2e][recommend]") {
  auto over = run_cli({"recommend", "--gpu", "rtx-3090", "--model-size", "8b", "--vram-free", "30"});
  CHECK(over.code == 2);
  CHECK(over.err == "qsel: error: --vram-free: expected GiB free per GPU from 0.5 to 24, got \"30\"\n");
  auto nominal = run_cli({"recommend", "--gpu", "rtx-3090", "--model", "llama-3.1-70b", "--ram", "64", "--format", "json"});
  auto free = run_cli({"recommend", "--gpu", "rtx-3090", "--model", "llama-3.1-70b", "--ram", "64", "--vram-free", "22", "--format", "json"});
  REQUIRE((nominal.code == 0 || nominal.code == 1));
  REQUIRE((free.code == 0 || free.code == 1));
  auto a = nlohmann::json::parse(nominal.out)["candidates"][0], b = nlohmann::json::parse(free.out)["candidates"][0];
  CHECK(b["budget"]["total_source"].get<std::string>().rfind("23.6 GB free (--vram-free 22 GiB: as given", 0) == 0);
  REQUIRE(a["placement"].is_object());
  REQUIRE(b["placement"].is_object());
  CHECK(b["placement"]["gpu_layers"].get<int>() < a["placement"]["gpu_layers"].get<int>());  // 2 GiB less: fewer layers on the GPU
}

TEST_CASE("recommend e2e: --backend narrows llama.cpp to one build, an unknown backend is a usage error", "[e2e][recommend]") {
  auto bad = run_cli({"recommend", "--gpu", "strix-halo", "--model", "qwen3-8b", "--backend", "vulcan"});
  CHECK(bad.code == 2);
  CHECK(bad.err.rfind("qsel: error: --backend: unknown backend \"vulcan\" (did you mean \"vulkan\"?); the backends are ", 0) == 0);
  CHECK(std::count(bad.err.begin(), bad.err.end(), '\n') == 1);
  // The ROCm build on this APU carries a wrong-output blocker (logits past n_ubatch): its candidates are listed, the
  // answer is no deployment (exit 1), and the lead names the Vulkan build with its flag (blind audit 31 #33).
  auto r = run_cli({"recommend", "--gpu", "strix-halo", "--model", "qwen3-8b", "--engine", "llama-cpp", "--backend", "rocm", "--format", "json"});
  REQUIRE(r.code == 1);
  auto j = nlohmann::json::parse(r.out);
  REQUIRE(!j["candidates"].empty());
  CHECK(j["candidates"][0]["backend"] == "rocm");
  CHECK(j["candidates"][0]["backend_build"]["name"] == "HIP (ROCm)");
  CHECK(j["lead"].dump().find("a path with a blocker") != std::string::npos);
  CHECK(j["lead"].dump().find("[gfx1151-hip-ubatch-logits]") != std::string::npos);
  CHECK(j["lead"].dump().find("what runs well") != std::string::npos);
  auto text = run_cli({"recommend", "--gpu", "strix-halo", "--model", "qwen3-8b", "--engine", "llama-cpp"});
  REQUIRE(text.code == 0);
  CHECK(text.out.find("llama-cpp:vulkan") != std::string::npos);
  CHECK(text.out.find("Build #1   Vulkan: `cmake -B build -DGGML_VULKAN=ON") != std::string::npos);
}

TEST_CASE("recommend e2e: --format html draws every candidate or says why not, and --format svg is the chart alone", "[e2e][recommend][html]") {
  auto page = run_cli({"recommend", "--gpu", "h100", "--model-size", "70b", "--format", "html"});
  INFO(page.err);
  REQUIRE(page.code == 0);
  json j = recommend({"--gpu", "h100", "--model-size", "70b"});
  const std::string& h = page.out;
  CHECK(h.rfind("<!doctype html>", 0) == 0);
  CHECK(h.find("http") == std::string::npos);  // nothing fetched, not even a link
  CHECK(h.find("<script") == std::string::npos);
  CHECK(h.find("<g id=\"top\"") != std::string::npos);
  CHECK(h.find("<g id=\"frontier\"") != std::string::npos);
  CHECK(h.find("id=\"point-1\"") != std::string::npos);
  std::size_t drawn = 0, left_out = 0, rows = 0;
  for (std::size_t at = 0; (at = h.find("<g class=\"point", at)) != std::string::npos; ++at) ++drawn;
  for (std::size_t at = 0; (at = h.find("<li data-rank=", at)) != std::string::npos; ++at) ++left_out;
  for (std::size_t at = 0; (at = h.find("<tr id=\"row-", at)) != std::string::npos; ++at) ++rows;
  CHECK(drawn + left_out == j["candidates"].size());
  CHECK(rows == j["candidates"].size());
  auto svg = run_cli({"recommend", "--gpu", "h100", "--model-size", "70b", "--format", "svg"});
  REQUIRE(svg.code == 0);
  CHECK(svg.out.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"chart\"", 0) == 0);
  CHECK(svg.out.find("<table") == std::string::npos);
  auto refused = run_cli({"list", "formats", "--format", "svg"});
  CHECK(refused.code == 2);
  CHECK(refused.err.find("`qsel list` does not support --format svg") != std::string::npos);
}

TEST_CASE("recommend: an engine that does not run on the part answers nothing and names the engines that do", "[cli][recommend]") {
  // Blind audit 23 #24: TensorRT-LLM on Jetson Thor (sm110) was offered with an "unlisted" warning; its trackers say the
  // main branch does not support Jetson (issues 5594, 9713), so its runs_on leaves sm110 out, as it does sm87.
  auto r = run_cli({"recommend", "--gpu", "jetson-agx-thor", "--model", "qwen3-32b", "--engine", "trtllm", "--format", "json"});
  CHECK(r.code == 1);
  json j = json::parse(r.out);
  CHECK(j["candidates"].empty());
  std::string unknowns = j["unknowns"].dump();
  CHECK_THAT(unknowns, Catch::Contains("engines recorded for sm110"));
  CHECK_THAT(unknowns, Catch::Contains("vllm"));
}
