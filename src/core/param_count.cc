#include "qsel/core/param_count.h"

namespace qsel {

double attention_params(const DecoderShape& s) {
  if (s.mla) {
    double qdim = s.heads * (s.nope_dim + s.rope_dim);
    double q = s.q_lora_rank > 0 ? s.hidden * s.q_lora_rank + s.q_lora_rank * qdim : s.hidden * qdim;
    return q + s.hidden * (s.kv_lora_rank + s.rope_dim) + s.kv_lora_rank * s.heads * (s.nope_dim + s.v_head_dim) +
           s.heads * s.v_head_dim * s.hidden;
  }
  return 2.0 * s.hidden * s.heads * s.head_dim + 2.0 * s.hidden * s.kv_heads * s.head_dim;
}

ParamCount count_params(const DecoderShape& s) {
  double attn = attention_params(s) * s.layers;
  double dense_mlp = 3.0 * s.hidden * s.intermediate * s.dense_layers;
  double expert = 3.0 * s.hidden * s.expert_intermediate;
  double moe_layers = s.experts > 0 ? s.layers - s.dense_layers : 0;
  double shared = s.shared_intermediate > 0 ? 3.0 * s.hidden * s.shared_intermediate : s.shared_experts * expert;  // per MoE layer
  double emb = s.vocab * s.hidden * (s.tied_embeddings ? 1 : 2);
  ParamCount c;
  c.total = attn + dense_mlp + (s.experts * expert + shared) * moe_layers + emb;
  c.active = s.experts > 0 ? attn + dense_mlp + (s.active_experts * expert + shared) * moe_layers + emb : c.total;
  return c;
}

}  // namespace qsel
