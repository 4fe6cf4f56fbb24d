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
                    Catch::Contains("llama.block_count is 0, not a plausible value (1 to 100000)"));
}
