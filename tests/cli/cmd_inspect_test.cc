#include <catch2/catch.hpp>

#include <fstream>

#include "qsel/loader/schema_set.h"
#include "support/checkpoints.h"
#include "support/hub_fixtures.h"

using qsel::test::run_cli;
using nlohmann::json;

TEST_CASE("inspect e2e: a checkpoint folder in text and JSON", "[e2e][inspect]") {
  qsel::test::ScopedEnv wide("COLUMNS", "1000");  // what is said, not where lines break
  qsel::test::TempDir d;
  auto path = qsel::test::write_checkpoint(d, "awq", qsel::test::tiny_config({{"quant_method", "awq"}, {"bits", 4}, {"group_size", 128}}),
                                           qsel::test::awq_tensors());
  auto j = run_cli({"inspect", path, "--format", "json"});
  REQUIRE(j.code == 0);
  json r = json::parse(j.out);
  CHECK(r["format"]["id"] == "awq");
  CHECK(r["kind"] == "safetensors");
  CHECK(r["quantized"]["group"] == 128);
  CHECK(r["model"]["layers"] == 2);
  CHECK(r["model"]["params_b"] == Approx((qsel::test::kTinyLinearParams + qsel::test::kTinyOtherParams) / 1e9).epsilon(1e-3));
  auto t = run_cli({"inspect", path, "--no-color"});
  REQUIRE(t.code == 0);
  CHECK(t.out.find("Format      awq — AWQ") != std::string::npos);
  CHECK(t.out.find("group 128 weights per scale") != std::string::npos);
  CHECK(t.err.empty());
}

TEST_CASE("inspect e2e: hostile files exit 2 with one located line", "[e2e][inspect]") {
  qsel::test::TempDir d;
  auto gguf = d.write("bad.gguf", "GGUF" + qsel::test::le32(3) + qsel::test::le64(~0ull) + qsel::test::le64(0)).string();
  auto r = run_cli({"inspect", gguf});
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  CHECK(r.err == "qsel: error: " + gguf + ": byte 8: tensor count 18446744073709551615 is not plausible (at most 65536)\n");
  auto none = run_cli({"inspect", (d.path() / "nope").string()});
  CHECK(none.code == 2);
  // tensor names and config values reach the terminal escaped
  json evil = json::array({{{"name", "x\x1b[2Jy.weight"}, {"dtype", "BF16"}, {"shape", {4, 4}}, {"bytes", 32}}});
  d.write("evil/model.safetensors", qsel::test::safetensors_bytes(evil));
  d.write("evil/config.json", qsel::test::tiny_config({{"quant_method", "\x1b]0;pwned\x07"}}).dump());
  auto e = run_cli({"inspect", (d.path() / "evil").string(), "--no-color"});
  CHECK(e.code == 0);
  CHECK(e.out.find('\x1b') == std::string::npos);
  CHECK(e.out.find("pwned") != std::string::npos);
}

TEST_CASE("inspect e2e: recommend --model PATH serves the checkpoint as it is and sizes it from its bytes", "[e2e][inspect][recommend]") {
  qsel::test::TempDir d;
  auto path = qsel::test::write_checkpoint(d, "awq", qsel::test::tiny_config({{"quant_method", "awq"}, {"bits", 4}, {"group_size", 128}}),
                                           qsel::test::awq_tensors());
  auto r = run_cli({"recommend", "--gpu", "rtx-4090", "--model", path, "--format", "json", "--all"});
  REQUIRE(r.code == 0);
  json j = json::parse(r.out);
  CHECK(j["candidates"][0]["format"] == "awq");
  CHECK(j["candidates"][0]["shipped"] == true);
  CHECK(j["model"]["checkpoint"]["format"] == "awq");
  double bytes = j["model"]["checkpoint"]["bytes"].get<double>();
  CHECK(j["candidates"][0]["weights_gb"].get<double>() == Approx(bytes / 1e9).margin(0.01));
  CHECK(j["candidates"][0]["why"][0] == "the checkpoint in " + path + " is awq: served as it is, no quantization step");
  bool checked = false;
  for (const auto& c : j["candidates"][0]["checks"]) checked = checked || c.get<std::string>().rfind("checked: the checkpoint in " + path + " is awq", 0) == 0;
  CHECK(checked);
  auto e = run_cli({"explain", path, "--on", "h100", "--format", "json"});
  REQUIRE(e.code == 0);
  CHECK(json::parse(e.out)["format"] == "awq");
}

TEST_CASE("inspect e2e: --format json matches schemas/output/inspect.schema.json", "[e2e][inspect][contract]") {
  qsel::test::TempDir d;
  auto folder = qsel::test::write_checkpoint(d, "awq", qsel::test::tiny_config({{"quant_method", "awq"}, {"bits", 4}}), qsel::test::awq_tensors());
  qsel::test::GgufWriter w;
  w.str("general.architecture", "llama");
  w.u32("general.file_type", 15);
  w.u32("llama.block_count", 1);
  w.u32("llama.embedding_length", 256);
  w.u32("llama.attention.head_count", 4);
  w.u32("llama.vocab_size", 256);
  w.tensor("blk.0.attn_q.weight", {256, 256}, 12, 256, 144);
  auto gguf = d.write("m.gguf", w.bytes()).string();
  std::ifstream in(qsel::test::source_dir() + "/schemas/output/inspect.schema.json");
  qsel::SchemaSet set({{"output", json::parse(in)}});
  for (const auto& p : {folder, gguf, folder + "/config.json"}) {
    auto r = run_cli({"inspect", p, "--format", "json"});
    INFO(p << " " << r.err);
    REQUIRE(r.code == 0);
    for (const auto& v : set.validate("output", json::parse(r.out), qsel::Marks{}, "inspect")) FAIL(v.message);
  }
}

TEST_CASE("inspect: a Hub GGUF repo with a tag reads only that file's header, by Range", "[cli][inspect][hub]") {
  qsel::test::HubServer s;
  qsel::test::serve_llama_gguf(s);
  qsel::test::TempDir cache;
  auto r = qsel::test::run_binary_env(qsel::test::hub_env(s, cache), std::string("inspect --format json ") + qsel::test::kGgufRepo + ":Q4_K_M");
  INFO(r.err);
  REQUIRE(r.code == 0);
  auto j = nlohmann::json::parse(r.out);
  CHECK(j["format"]["id"] == "gguf-q4-k-m");
  CHECK(j["model"]["layers"] == 32);
  CHECK(j["source"].get<std::string>().find("unsloth/Llama-3.1-8B-Instruct-GGUF at main (commit 89abcdef0123)") != std::string::npos);
  for (const auto& line : s.log()) CHECK(line.find("Q8_0") == std::string::npos);  // the other quantizations are never touched
}

TEST_CASE("inspect: a Hub repo that is not there, or gated, is one line and exit 2", "[cli][inspect][hub]") {
  qsel::test::HubServer s;
  qsel::test::serve_misbehaving(s);
  qsel::test::TempDir cache;
  auto gated = qsel::test::run_binary_env(qsel::test::hub_env(s, cache), "inspect test/gated");
  CHECK(gated.code == 2);
  CHECK(gated.err == "qsel: error: test/gated: gated: accept the licence on the model page (" + s.endpoint() + "/test/gated) and set HF_TOKEN\n");
  auto missing = qsel::test::run_binary_env(qsel::test::hub_env(s, cache), "inspect nobody/nothing");
  CHECK(missing.code == 2);
  CHECK(missing.err.find("nobody/nothing: no such model repository on " + s.endpoint()) != std::string::npos);
  auto token = qsel::test::run_binary_env(qsel::test::hub_env(s, cache) + "HF_TOKEN=hf_do_not_print_me ", "-vv inspect test/gated");
  CHECK(token.code == 2);
  CHECK(token.err.find("hf_do_not_print_me") == std::string::npos);
  CHECK(token.err.find("the token from HF_TOKEN has no access") != std::string::npos);
}

// Local first (issue 42): a path that starts like one, or whose first folder exists here, or
// that ends in a file extension, is never a question to the Hub when it is missing.
TEST_CASE("inspect: a mistyped local path is 'no such file or folder' with the nearest sibling, not a Hub request", "[cli][inspect][local-first]") {
  setenv("HF_HUB_OFFLINE", "1", 1);  // were it asked, the Hub would answer "offline", which the checks below refuse
  for (std::vector<std::string> args : {std::vector<std::string>{"inspect", "examples/qwen3-32"},
                                        std::vector<std::string>{"inspect", "./no-such-folder"},
                                        std::vector<std::string>{"inspect", "model-that-is-not-here.gguf"},
                                        std::vector<std::string>{"recommend", "--gpu", "h100", "--model", "examples/deepseek-r2"},
                                        std::vector<std::string>{"explain", "examples/gpt-oss-12b", "--on", "rtx-5090"}}) {
    INFO(args[1]);
    auto r = test::run_cli(args);
    CHECK(r.code == 2);
    CHECK(r.err.find("no such file or folder") != std::string::npos);
    CHECK(r.err.find("HF_TOKEN") == std::string::npos);
    CHECK(r.err.find("offline") == std::string::npos);
  }
  auto r = test::run_cli({"inspect", "examples/qwen3-32"});
  CHECK(r.err.find("did you mean \"examples/qwen3-32b\"?") != std::string::npos);
  CHECK(r.err.find("hf://examples/qwen3-32") != std::string::npos);
  unsetenv("HF_HUB_OFFLINE");
}
