// The shipped format and the measured sizes of tiny checkpoints written the way
// each producer writes them; every expected number comes from the layouts
// (tests/support/checkpoints.h) and the specs, never from qsel's output.
#include <catch2/catch.hpp>

#include "qsel/cli/context.h"
#include "qsel/model/checkpoint_format.h"
#include "support/checkpoints.h"

using namespace qsel;
using nlohmann::json;

namespace {

CheckpointAnalysis analyze(const std::string& path) {
  Context ctx;
  return analyze_checkpoint(ctx.graph(), read_checkpoint(path));
}

// Quantized linears in a layout given per (in, out): payload, scale and auxiliary tensors.
template <class F>
json linears(F&& layer) {
  json e = json::array();
  for (auto [n, i, o] : test::tiny_linears()) layer(e, n, i, o);
  return e;
}

const KeptTensors* kept(const CheckpointAnalysis& a, const std::string& cat) {
  for (const auto& k : a.kept)
    if (k.category == cat) return &k;
  return nullptr;
}

}  // namespace

TEST_CASE("checkpoint_format: AWQ: format, unpacked parameters, group 128, what stays in 16-bit", "[rules][checkpoint]") {
  test::TempDir d;
  auto a = analyze(test::write_checkpoint(d, "awq", test::tiny_config({{"quant_method", "awq"}, {"bits", 4}, {"group_size", 128},
                                                                        {"zero_point", true}, {"version", "gemm"}}),
                                           test::awq_tensors()));
  REQUIRE(a.format);
  CHECK(a.format->id == "awq");
  CHECK(a.matched_by.find("quantization_config: bits=4, quant_method=awq") != std::string::npos);
  CHECK(a.quantized_params == test::kTinyLinearParams);
  CHECK(a.params == test::kTinyLinearParams + test::kTinyOtherParams);
  CHECK(a.quantized_bpw() == Approx(4 + (16.0 + 4) / 128));  // 4-bit weight, F16 scale and packed 4-bit zero per 128
  REQUIRE(a.group);
  CHECK(*a.group == 128);
  CHECK(!a.group_min);
  CHECK(kept(a, "embeddings")->params == 512000);
  CHECK(kept(a, "lm_head")->params == 512000);
  CHECK(kept(a, "norms")->tensors == 5);
  CHECK(std::find(a.settings.begin(), a.settings.end(), "group_size 128") != a.settings.end());
}

TEST_CASE("checkpoint_format: compressed-tensors NVFP4 and ModelOpt NVFP4 are both nvfp4, group 16", "[rules][checkpoint]") {
  test::TempDir d;
  json ct = {{"quant_method", "compressed-tensors"}, {"format", "nvfp4-pack-quantized"},
             {"config_groups", {{"group_0", {{"weights", {{"num_bits", 4}, {"type", "float"}, {"strategy", "tensor_group"}, {"group_size", 16}}}}}}}};
  auto layer = [](json& e, const std::string& n, int i, int o) {
    e.push_back({{"name", n + ".weight_packed"}, {"dtype", "U8"}, {"shape", {o, i / 2}}, {"bytes", o * i / 2}});
    e.push_back({{"name", n + ".weight_scale"}, {"dtype", "F8_E4M3"}, {"shape", {o, i / 16}}, {"bytes", o * i / 16}});
    e.push_back({{"name", n + ".weight_global_scale"}, {"dtype", "F32"}, {"shape", {1}}, {"bytes", 4}});
  };
  json t = linears(layer);
  test::tiny_unquantized(t, "BF16");
  auto a = analyze(test::write_checkpoint(d, "ct", test::tiny_config(ct), t));
  REQUIRE(a.format);
  CHECK(a.format->id == "nvfp4");
  CHECK(a.quantized_params == test::kTinyLinearParams);
  CHECK(*a.group == 16);
  CHECK(a.quantized_bpw() == Approx(4 + 8.0 / 16 + 14 * 32 / test::kTinyLinearParams));  // FP8 scale per 16; one F32 global per layer

  auto mo = [](json& e, const std::string& n, int i, int o) {
    e.push_back({{"name", n + ".weight"}, {"dtype", "U8"}, {"shape", {o, i / 2}}, {"bytes", o * i / 2}});
    e.push_back({{"name", n + ".weight_scale"}, {"dtype", "F8_E4M3"}, {"shape", {o, i / 16}}, {"bytes", o * i / 16}});
    e.push_back({{"name", n + ".weight_scale_2"}, {"dtype", "F32"}, {"shape", json::array()}, {"bytes", 4}});
    e.push_back({{"name", n + ".input_scale"}, {"dtype", "F32"}, {"shape", json::array()}, {"bytes", 4}});
  };
  json m = linears(mo);
  test::tiny_unquantized(m, "BF16");
  test::write_checkpoint(d, "mo", test::tiny_config(), m);
  d.write("mo/hf_quant_config.json", json{{"producer", {{"name", "modelopt"}}}, {"quantization", {{"quant_algo", "NVFP4"}, {"group_size", 16}}}}.dump());
  auto b = analyze((d.path() / "mo").string());
  REQUIRE(b.format);
  CHECK(b.format->id == "nvfp4");
  CHECK(b.matched_by == "hf_quant_config.json: quantization/quant_algo=NVFP4");
  CHECK(b.quantized_params == test::kTinyLinearParams);
  CHECK(*b.group == 16);
}

TEST_CASE("checkpoint_format: DeepSeek-style block FP8: weights per scale is the 128 x 128 block", "[rules][checkpoint]") {
  test::TempDir d;
  auto layer = [](json& e, const std::string& n, int i, int o) {
    e.push_back({{"name", n + ".weight"}, {"dtype", "F8_E4M3"}, {"shape", {o, i}}, {"bytes", o * i}});
    e.push_back({{"name", n + ".weight_scale_inv"}, {"dtype", "F32"}, {"shape", {o / 128, i / 128}}, {"bytes", o / 128 * i / 128 * 4}});
  };
  json t = linears(layer);
  test::tiny_unquantized(t, "BF16");
  auto a = analyze(test::write_checkpoint(
      d, "fp8", test::tiny_config({{"quant_method", "fp8"}, {"activation_scheme", "dynamic"}, {"weight_block_size", {128, 128}}}), t));
  REQUIRE(a.format);
  CHECK(a.format->id == "fp8-blockwise");
  CHECK(*a.group == 128 * 128);
  CHECK(a.quantized_bpw() == Approx(8 + 32.0 / (128 * 128)));
  // the same config without blocks is per-tensor FP8
  auto p = analyze(test::write_checkpoint(d, "fp8t", test::tiny_config({{"quant_method", "fp8"}}), t));
  CHECK(p.format->id == "fp8-per-tensor");
}

TEST_CASE("checkpoint_format: gpt-oss MXFP4 experts: blocks of 32 values in 16 bytes", "[rules][checkpoint]") {
  test::TempDir d;
  json t = json::array();
  const int E = 4, H = 512, I = 256;
  for (const char* p : {"gate_up_proj", "down_proj"}) {
    int out = std::string(p) == "gate_up_proj" ? 2 * I : H, in = std::string(p) == "gate_up_proj" ? H : I;
    std::string n = std::string("model.layers.0.mlp.experts.") + p;
    t.push_back({{"name", n + "_blocks"}, {"dtype", "U8"}, {"shape", {E, out, in / 32, 16}}, {"bytes", E * out * in / 32 * 16}});
    t.push_back({{"name", n + "_scales"}, {"dtype", "U8"}, {"shape", {E, out, in / 32}}, {"bytes", E * out * in / 32}});
  }
  test::tiny_unquantized(t, "BF16");
  auto a = analyze(test::write_checkpoint(d, "oss", test::tiny_config({{"quant_method", "mxfp4"}}), t));
  REQUIRE(a.format);
  CHECK(a.format->id == "mxfp4-moe");
  CHECK(a.quantized_params == E * (2.0 * I * H + H * I));
  CHECK(*a.group == 32);
  CHECK(a.quantized_bpw() == Approx(4.25));
}

TEST_CASE("checkpoint_format: bitsandbytes NF4: packed bytes, absmax per 64", "[rules][checkpoint]") {
  test::TempDir d;
  auto layer = [](json& e, const std::string& n, int i, int o) {
    e.push_back({{"name", n + ".weight"}, {"dtype", "U8"}, {"shape", {o * i / 2, 1}}, {"bytes", o * i / 2}});
    e.push_back({{"name", n + ".weight.absmax"}, {"dtype", "F32"}, {"shape", {o * i / 64}}, {"bytes", o * i / 64 * 4}});
    e.push_back({{"name", n + ".weight.quant_map"}, {"dtype", "F32"}, {"shape", {16}}, {"bytes", 64}});
    e.push_back({{"name", n + ".weight.quant_state.bitsandbytes__nf4"}, {"dtype", "U8"}, {"shape", {81}}, {"bytes", 81}});
  };
  json t = linears(layer);
  test::tiny_unquantized(t, "BF16");
  auto a = analyze(test::write_checkpoint(
      d, "bnb", test::tiny_config({{"quant_method", "bitsandbytes"}, {"load_in_4bit", true}, {"bnb_4bit_quant_type", "nf4"}}), t));
  REQUIRE(a.format);
  CHECK(a.format->id == "bitsandbytes-load-in-4bit");
  CHECK(a.quantized_params == test::kTinyLinearParams);
  CHECK(*a.group == 64);
}

TEST_CASE("checkpoint_format: an unquantized checkpoint is its dtype, an unknown method says so", "[rules][checkpoint]") {
  test::TempDir d;
  json t = json::array();
  for (auto [n, i, o] : test::tiny_linears()) t.push_back({{"name", n + ".weight"}, {"dtype", "BF16"}, {"shape", {o, i}}, {"bytes", o * i * 2}});
  test::tiny_unquantized(t, "BF16");
  auto a = analyze(test::write_checkpoint(d, "bf16", test::tiny_config(), t));
  REQUIRE(a.format);
  CHECK(a.format->id == "bf16");
  CHECK(a.matched_by == "the weights' dtype (no quantization config): dtype=BF16");
  CHECK(a.params == test::kTinyLinearParams + test::kTinyOtherParams);
  CHECK(a.bpw() == 16);
  auto u = analyze(test::write_checkpoint(d, "hqq", test::tiny_config({{"quant_method", "hqq"}}), t));
  CHECK(u.format == nullptr);
  REQUIRE(!u.notes.empty());
  CHECK(u.notes[0] == "quantization config (\"hqq\") matches no format record's checkpoint signature: the parameter count is the stored "
                      "elements and miscounts packed weights");
}

TEST_CASE("checkpoint_format: a GGUF Q4_K_M mixture is one format, its types counted apart", "[rules][checkpoint]") {
  test::TempDir d;
  test::GgufWriter w;
  w.str("general.architecture", "llama");
  w.u32("general.file_type", 15);  // LLAMA_FTYPE_MOSTLY_Q4_K_M
  w.tensor("token_embd.weight", {256, 512}, 12, 256, 144);       // Q4_K
  w.tensor("blk.0.attn_norm.weight", {256}, 0, 1, 4);            // F32
  w.tensor("blk.0.attn_q.weight", {256, 256}, 12, 256, 144);     // Q4_K
  w.tensor("blk.0.ffn_down.weight", {512, 256}, 14, 256, 210);   // Q6_K
  w.tensor("output.weight", {256, 512}, 14, 256, 210);           // Q6_K
  auto path = d.write("m.gguf", w.bytes()).string();
  auto a = analyze(path);
  REQUIRE(a.format);
  CHECK(a.format->id == "gguf-q4-k-m");
  CHECK(a.matched_by == "GGUF metadata: general.file_type=15");
  double q4 = 256.0 * 512 + 256 * 256, q6 = 512.0 * 256 + 256 * 512;
  CHECK(a.params == q4 + q6 + 256);
  CHECK(a.bytes == q4 / 256 * 144 + q6 / 256 * 210 + 256 * 4);
  REQUIRE(a.by_dtype.size() == 3);
  CHECK(a.by_dtype[0].dtype == "Q6_K");
  CHECK(a.by_dtype[0].params == q6);
  CHECK(a.by_dtype[0].group == 16);
  CHECK(a.by_dtype[1].dtype == "Q4_K");
  CHECK(a.by_dtype[1].group == 32);
  CHECK(*a.group_min == 16);
  CHECK(*a.group_max == 32);
  CHECK(kept(a, "norms")->tensors == 1);
  test::GgufWriter odd;
  odd.str("general.architecture", "llama");
  odd.u32("general.file_type", 4);  // Q4_1_SOME_F16 (deprecated): no record
  auto b = analyze(d.write("odd.gguf", odd.bytes()).string());
  CHECK(b.format == nullptr);
  CHECK(b.notes == std::vector<std::string>{"general.file_type 4 matches no format record"});
}

TEST_CASE("checkpoint_format: a config.json alone with no quantization config is the dtype it declares", "[rules][checkpoint]") {
  auto a = analyze(test::source_dir() + "/examples/qwen3-32b/config.json");
  REQUIRE(a.format);
  CHECK(a.format->id == "bf16");
  CHECK(a.matched_by == "config.json torch_dtype bfloat16 (no quantization config; no weights read): dtype=BF16");
  test::TempDir d;
  auto half = d.write("config.json", R"({"architectures": ["X"], "dtype": "float16", "num_hidden_layers": 2})");
  auto h = analyze(half.string());
  REQUIRE(h.format);
  CHECK(h.format->id == "fp16");
  auto odd = d.write("odd/config.json", R"({"torch_dtype": "float8_e4m3fn"})");
  CHECK_FALSE(analyze(odd.string()).format);  // not a dtype qsel maps: no guess
}
