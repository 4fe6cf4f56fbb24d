// A decoder's parameter count from its shape: what a config.json (--model-config)
// or a model record's shape fields (QS041) say, norms and biases ignored.
#pragma once

namespace qsel {

struct DecoderShape {
  double layers = 0, hidden = 0, heads = 0, kv_heads = 0, head_dim = 0, vocab = 0;
  bool tied_embeddings = false;
  double intermediate = 0;  // the dense FFN's width (gate, up and down: 3 x hidden x width)
  double dense_layers = 0;  // layers with the dense FFN: every layer of a dense model; in an MoE, the
                            // layers that are not MoE (DeepSeek's first_k_dense_replace, Llama 4's interleave)
  // MoE layers (layers - dense_layers of them): routed experts, and shared ones.
  double experts = 0, active_experts = 0, expert_intermediate = 0;
  double shared_experts = 0;       // how many shared experts, each of expert_intermediate ...
  double shared_intermediate = 0;  // ... unless this gives the shared FFN's whole width (Qwen's shared_expert_intermediate_size)
  // Multi-head latent attention (DeepSeek V2/V3): set mla and the ranks.
  bool mla = false;
  double kv_lora_rank = 0, rope_dim = 0, nope_dim = 0, v_head_dim = 0, q_lora_rank = 0;  // q_lora_rank 0: a full query projection
};

struct ParamCount {
  double total = 0, active = 0;  // parameters, not billions
};

// Attention weights of one layer (Q, K, V and O, or MLA's projections).
double attention_params(const DecoderShape& s);

// Embeddings (and the LM head unless tied), attention, dense FFNs and experts; the
// active count takes only `active_experts` routed experts per MoE layer.
ParamCount count_params(const DecoderShape& s);

}  // namespace qsel
