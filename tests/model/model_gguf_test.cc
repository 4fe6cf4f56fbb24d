#include <catch2/catch.hpp>

#include "qsel/artifact/gguf.h"
#include "qsel/core/errors.h"
#include "qsel/model/model_spec.h"
#include "support/artifact_writer.h"
#include "support/fixtures.h"

using namespace qsel;

TEST_CASE("model_gguf: shape from the metadata llama.cpp reads, parameters from the tensors", "[rules][gguf]") {
  test::TempDir d;
  test::GgufWriter w;
  w.str("general.architecture", "qwen3moe");
  w.str("general.name", "Tiny MoE");
  w.u32("qwen3moe.block_count", 2);
  w.u32("qwen3moe.embedding_length", 256);
  w.u32("qwen3moe.attention.head_count", 8);
  w.u32("qwen3moe.attention.head_count_kv", 2);
  w.u32("qwen3moe.attention.key_length", 64);
  w.u32("qwen3moe.expert_count", 8);
  w.u32("qwen3moe.expert_used_count", 2);
  w.str_array("tokenizer.ggml.tokens", std::vector<std::string>(300, "t"));
  w.tensor("token_embd.weight", {256, 300}, 1, 1, 2);                // F16
  w.tensor("blk.0.ffn_up_exps.weight", {256, 128, 8}, 8, 32, 34);   // Q8_0, 8 experts
  w.tensor("blk.0.attn_q.weight", {256, 512}, 8, 32, 34);
  ModelSpec m = model_from_gguf(read_gguf(d.write("m.gguf", w.bytes()).string()));
  CHECK(m.layers == 2);
  CHECK(m.hidden == 256);
  CHECK(m.kv_heads == 2);
  CHECK(m.head_dim == 64);
  CHECK(m.vocab == 300);
  CHECK(m.experts == 8);
  CHECK(m.tied_embeddings);  // no output.weight
  double experts = 256.0 * 128 * 8, other = 256.0 * 300 + 256 * 512;
  CHECK(m.params_b == Approx((experts + other) / 1e9));
  CHECK(m.active_params_b == Approx((other + experts * 2 / 8) / 1e9));
  CHECK(m.origin == "gguf");
}

TEST_CASE("model_gguf: missing or absurd shape keys are usage errors", "[rules][gguf]") {
  test::TempDir d;
  test::GgufWriter none;
  CHECK_THROWS_WITH(model_from_gguf(read_gguf(d.write("a.gguf", none.bytes()).string())), Catch::Contains("no general.architecture"));
  test::GgufWriter bad;
  bad.str("general.architecture", "llama");
  bad.u32("llama.block_count", 0);
  CHECK_THROWS_WITH(model_from_gguf(read_gguf(d.write("b.gguf", bad.bytes()).string())),
                    Catch::Contains("llama.block_count is 0, not a plausible value (1 to 10000)"));
}

// Issue 26: every metadata value the rules read is range-checked against the table
// config.json's keys use (model/shape_limits.h), and the counts are checked against each other.
TEST_CASE("model_gguf: rope.dimension_count -600, expert_used_count 1000 of 8, 2^31-1 layers are refused", "[rules][gguf]") {
  test::TempDir d;
  auto error_with = [&](auto&& extra, const std::string& name) {
    test::GgufWriter w;
    w.str("general.architecture", "deepseek2");
    w.u32("deepseek2.block_count", 2);
    w.u32("deepseek2.embedding_length", 256);
    w.u32("deepseek2.attention.head_count", 8);
    w.u32("deepseek2.attention.kv_lora_rank", 64);
    w.u32("deepseek2.vocab_size", 300);
    extra(w);
    w.tensor("token_embd.weight", {256, 300}, 1, 1, 2);
    std::string path = d.write(name, w.bytes()).string();
    try {
      model_from_gguf(read_gguf(path));
    } catch (const UsageError& e) {
      return std::string(e.what()).substr(path.size());
    }
    return std::string("no error");
  };
  CHECK(error_with([](auto& w) { w.i32_array("deepseek2.rope.dimension_count", {-600}); }, "rope.gguf") ==
        ": deepseek2.rope.dimension_count is -600, not a plausible value (1 to 65536)");
  CHECK(error_with([](auto& w) { w.u32("deepseek2.expert_count", 8); w.u32("deepseek2.expert_used_count", 1000); }, "used.gguf") ==
        ": deepseek2.expert_used_count (1000) is more than deepseek2.expert_count (8)");
  CHECK(error_with([](auto& w) { w.u32("deepseek2.rope.dimension_count", 2147483647); }, "big.gguf") ==
        ": deepseek2.rope.dimension_count is 2147483647, not a plausible value (1 to 65536)");
  CHECK(error_with([](auto& w) { w.u64("deepseek2.context_length", ~0ull); }, "ctx.gguf") == "no error");  // not read by the rules
  CHECK(error_with([](auto& w) { w.u32("deepseek2.attention.head_count_kv", 16); }, "kv.gguf") ==
        ": deepseek2.attention.head_count_kv (16) is more than deepseek2.attention.head_count (8)");
  CHECK(error_with([](auto& w) { w.f32("deepseek2.expert_count", 8.5f); }, "float.gguf") ==
        ": deepseek2.expert_count is 8.5, not a plausible value (0 to 65536)");
  CHECK(error_with([](auto& w) { w.u32("deepseek2.attention.sliding_window", 0); }, "nowindow.gguf") == "no error");  // 0 is "none"
  test::GgufWriter layers;
  layers.str("general.architecture", "llama");
  layers.u32("llama.block_count", 2147483647);
  CHECK_THROWS_WITH(model_from_gguf(read_gguf(d.write("layers.gguf", layers.bytes()).string())),
                    Catch::EndsWith(": llama.block_count is 2147483647, not a plausible value (1 to 10000)"));
  test::GgufWriter missing;
  missing.str("general.architecture", "llama");
  CHECK_THROWS_WITH(model_from_gguf(read_gguf(d.write("missing.gguf", missing.bytes()).string())),
                    Catch::EndsWith(": no llama.block_count in the GGUF metadata (a positive integer)"));
}
