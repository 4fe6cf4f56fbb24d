#include <catch2/catch.hpp>

#include "qsel/core/param_count.h"

using namespace qsel;

namespace {

// Llama 3 8B's config.json: 32 layers, hidden 4096, FFN 14336, 32 Q / 8 KV heads of 128, vocab 128256, untied.
DecoderShape llama3_8b() {
  DecoderShape s;
  s.layers = 32, s.hidden = 4096, s.heads = 32, s.kv_heads = 8, s.head_dim = 128, s.vocab = 128256;
  s.intermediate = 14336, s.dense_layers = 32;
  return s;
}

}  // namespace

TEST_CASE("param_count: a dense GQA decoder counts to its published 8.03 B", "[core][param_count]") {
  DecoderShape s = llama3_8b();
  CHECK(attention_params(s) == Approx(2.0 * 4096 * 32 * 128 + 2.0 * 4096 * 8 * 128));
  ParamCount c = count_params(s);
  CHECK(c.total / 1e9 == Approx(8.03).epsilon(0.005));
  CHECK(c.active == c.total);  // dense: every parameter is active
  s.tied_embeddings = true;    // a tied LM head drops one vocab x hidden matrix
  CHECK(count_params(s).total == Approx(c.total - 128256.0 * 4096));
}

TEST_CASE("param_count: InternLM3-8B's shape gives 8.80 B, not the nominal 8", "[core][param_count]") {
  DecoderShape s;
  s.layers = 48, s.hidden = 4096, s.heads = 32, s.kv_heads = 2, s.head_dim = 128, s.vocab = 128512;
  s.intermediate = 10240, s.dense_layers = 48;
  CHECK(count_params(s).total / 1e9 == Approx(8.80).epsilon(0.005));
}

TEST_CASE("param_count: an MoE counts every expert in total and the routed ones as active", "[core][param_count]") {
  // Mixtral 8x7B: 8 experts of 14336, 2 routed, no dense layer: 46.7 B total, 12.9 B active.
  DecoderShape s;
  s.layers = 32, s.hidden = 4096, s.heads = 32, s.kv_heads = 8, s.head_dim = 128, s.vocab = 32000;
  s.experts = 8, s.active_experts = 2, s.expert_intermediate = 14336, s.dense_layers = 0;
  ParamCount c = count_params(s);
  CHECK(c.total / 1e9 == Approx(46.7).epsilon(0.005));
  CHECK(c.active / 1e9 == Approx(12.9).epsilon(0.01));
}

TEST_CASE("param_count: MLA with low-rank projections, dense first layers and a shared expert", "[core][param_count]") {
  // DeepSeek-V3 (without the multi-token-prediction layer): 671 B total, 37 B active.
  DecoderShape s;
  s.layers = 61, s.hidden = 7168, s.heads = 128, s.vocab = 129280;
  s.intermediate = 18432, s.dense_layers = 3;
  s.experts = 256, s.active_experts = 8, s.expert_intermediate = 2048, s.shared_experts = 1;
  s.mla = true, s.kv_lora_rank = 512, s.rope_dim = 64, s.nope_dim = 128, s.v_head_dim = 128, s.q_lora_rank = 1536;
  ParamCount c = count_params(s);
  CHECK(c.total / 1e9 == Approx(671).epsilon(0.01));
  CHECK(c.active / 1e9 == Approx(37).epsilon(0.02));
  // A shared FFN given by its whole width counts the same as one shared expert of that width.
  DecoderShape w = s;
  w.shared_experts = 0, w.shared_intermediate = 2048;
  CHECK(count_params(w).total == Approx(c.total));
}
