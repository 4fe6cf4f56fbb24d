// recommend's text layout: it fits the terminal, rows with the same figures
// share a line, and the long ranking and exclusion text waits for -v.
#include <catch2/catch.hpp>

#include <sstream>

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "qsel/report/table.h"
#include "support/fixtures.h"

using namespace qsel;

namespace {

// Lines of `text` wider than `width` visible characters, for the failure message.
std::vector<std::string> wider_than(const std::string& text, std::size_t width) {
  std::vector<std::string> out;
  for (std::size_t at = 0, end; (end = text.find('\n', at)) != std::string::npos; at = end + 1)
    if (std::string l = text.substr(at, end - at); visible_width(l) > width) out.push_back(l);
  return out;
}

const std::vector<std::vector<std::string>> kQueries = {
    {"--gpu", "h100", "--model-size", "70b"},
    {"--gpu", "rtx-3090", "--model-size", "70b"},
    {"--gpu", "rtx-5090", "--model", "qwen3-32b", "--engine", "llama-cpp"},
    {"--gpu", "m3-max-36gb", "--model-size", "8b", "--objective", "speed"},
    {"--gpu", "mi355x", "--model", "deepseek-r1"},
    {"--gpu", "h100", "--count", "8", "--model", "deepseek-r1", "--all"},
};

}  // namespace

TEST_CASE("render_recommend: default text fits 100 columns, and COLUMNS when it is set", "[report][recommend]") {
  for (const auto& q : kQueries) {
    std::vector<std::string> args = {"recommend", "--no-color"};
    args.insert(args.end(), q.begin(), q.end());
    auto r = test::run_cli(args);
    INFO(r.out);
    REQUIRE(r.code == 0);
    CHECK(wider_than(r.out, 100).empty());
  }
  std::string cmd = "recommend --no-color --gpu rtx-3090 --model-size 70b";
  auto narrow = test::run_binary_env("env COLUMNS=80 ", cmd);
  REQUIRE(narrow.code == 0);
  CHECK(wider_than(narrow.out, 80) == std::vector<std::string>{});
  auto wide = test::run_binary_env("env COLUMNS=200 ", cmd);
  CHECK(wide.out.find(" #  format               engine     kernel         path     weights GB  KV GB  total GB  fits     tok/s  quality\n") !=
        std::string::npos);
  CHECK(wide.out.find("left out") == std::string::npos);
  CHECK(wide.out.find("shown from") == std::string::npos);
}

TEST_CASE("render_recommend: a long engine list is cut before the quality figure it is ranked by", "[report][recommend]") {
  // At 100 columns the H100 8B table needs more: it comes out of the grouped engine
  // list, and the quality figure it is ranked by stays whole.
  auto r = test::run_cli({"recommend", "--no-color", "--gpu", "h100", "--model-size", "8b", "--all"});
  REQUIRE(r.code == 0);
  auto j = nlohmann::json::parse(test::run_cli({"recommend", "--format", "json", "--gpu", "h100", "--model-size", "8b"}).out);
  // The figures the rows show come from the JSON (the forecast moves with the calibration rows).
  const auto& fp8 = j["candidates"][3];
  REQUIRE(fp8["format"] == "fp8-rowwise");
  std::string tok = fmt::format("~{:.0f}", fp8["forecast"]["decode_tok_s"].get<double>());
  std::string summary = fp8["quality"]["summary"];
  bool fp8_row = false, cut_bf16 = false;
  std::istringstream lines(r.out);
  for (std::string l; std::getline(lines, l);) {
    if (l.find("fp8 rowwise/per-tensor (w8a8)      sglang/trtllm/vllm     10.1      yes   " + tok + "   " + summary) != std::string::npos &&
        l.size() - summary.size() == l.rfind(summary))
      fp8_row = true;
    if (l.find("bf16 (w16a16)") != std::string::npos && l.find("…  17.1      yes") != std::string::npos &&
        l.rfind("reference") == l.size() - 9)
      cut_bf16 = true;  // the engine list is cut, the quality column stays whole
  }
  CHECK(fp8_row);
  CHECK(cut_bf16);
  CHECK(wider_than(r.out, 100).empty());
}

TEST_CASE("render_recommend: candidates whose format, path and figures match share one row, whatever their engines and kernels",
          "[report][recommend]") {
  auto r = test::run_cli({"recommend", "--no-color", "--gpu", "h100", "--model-size", "70b"});
  auto awq = nlohmann::json::parse(test::run_cli({"recommend", "--format", "json", "--gpu", "h100", "--model-size", "70b"}).out);
  std::string awq_quality = awq["candidates"][1]["quality"]["summary"];
  // The forecast moves with the speed rows the calibration reads: take it from the JSON, as the quality.
  std::string awq_speed = fmt::format("~{:<6.0f}", awq["candidates"][1]["forecast"]["decode_tok_s"].get<double>());
  // The AWQ row stands for its two engines (ranks 2-3), its figures once, padded as the table pads them.
  bool awq_row = false;
  std::stringstream lines(r.out);
  for (std::string l; std::getline(lines, l);)
    if (l.rfind(" 2-3 ", 0) == 0 && l.find("awq (w4a16)") != std::string::npos && l.find("sglang/vllm ") != std::string::npos &&
        l.find(" dequant  42.5 ") != std::string::npos && l.size() >= awq_quality.size() &&
        l.compare(l.size() - awq_quality.size(), awq_quality.size(), awq_quality) == 0 && l.find(awq_speed) != std::string::npos)
      awq_row = true;
  CHECK(awq_row);
  CHECK(r.out.find(" kernel, weights GB, KV GB: shown from 171 columns (a wider terminal, or COLUMNS=171); --format json") != std::string::npos);
  // Bars that are the same are one line, naming every rank they stand for.
  CHECK(r.out.find("\n #2-5   ███████████████████▓▒▒▒▒▒▒▒·············  56.5 of 85.5 GB\n") != std::string::npos);
  // JSON still has one entry per candidate, each with its own kernel.
  auto j = nlohmann::json::parse(test::run_cli({"recommend", "--format", "json", "--gpu", "h100", "--model-size", "70b"}).out);
  CHECK(j["candidates"][1]["format"] == "awq");
  CHECK(j["candidates"][1]["kernel"] == "marlin");
  CHECK(j["candidates"][2]["kernel"] == "machete");
}

TEST_CASE("render_recommend: the ranking's order and each exclusion's reason are behind -v", "[report][recommend]") {
  std::vector<std::string> args = {"recommend", "--no-color", "--gpu", "h100", "--model-size", "70b"};
  auto plain = test::run_cli(args);
  args.push_back("-v");
  auto verbose = test::run_cli(args);
  CHECK(plain.out.find("ranking — objective quality") == std::string::npos);
  CHECK(verbose.out.find("ranking — objective quality") != std::string::npos);
  CHECK(plain.out.find("Excluded   Rule 1: fp8-blockwise on trtllm, llmcompressor-w4a8-int8 on vllm, modelopt on trtllm,\n") !=
        std::string::npos);
  CHECK(plain.out.find("marks NVFP4 \".\" on Hopper") == std::string::npos);
  CHECK(verbose.out.find("nvfp4 on trtllm — Rule 1: trtllm-quant-matrix marks NVFP4 \".\" on Hopper") != std::string::npos);
  CHECK(verbose.out.find("#1: 85.5 GB per part (81559 MiB as the driver reports it); trtllm:") != std::string::npos);
  CHECK(plain.out.find("GB per part (81559 MiB") == std::string::npos);
}

TEST_CASE("render_recommend: a memory bar per row: what one GPU holds, and what lives in system RAM", "[report][recommend]") {
  auto r = test::run_cli({"recommend", "--no-color", "--gpu", "rtx-3090", "--model-size", "70b"});
  CHECK(r.out.find("Memory     per GPU: █ weights  ▓ KV cache  ▒ the engine's own  · free\n") != std::string::npos);
  CHECK(r.out.find("\n #1  ████████████████████████████████████▓▓··  24.4 GB on the GPU + 20.8 GB in system RAM\n") != std::string::npos);
  // A model past the GPU with nowhere else to go says by how much.
  auto big = test::run_cli({"recommend", "--no-color", "--gpu", "rtx-3090", "--model-size", "405b", "--engine", "vllm", "--all"});
  CHECK(big.out.find("GB over the GPU's 25.8\n") != std::string::npos);
}
