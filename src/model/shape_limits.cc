#include "qsel/model/shape_limits.h"

#include <string_view>
#include <utility>

namespace qsel {
namespace {

// Below the minimum or above the maximum a value is a mistake (or an attack),
// never a model. The maxima are far above any published model (DeepSeek-V3:
// 61 layers, 7168 hidden, 256 experts; Llama 3.1 405B: 126 layers, 16384 hidden).
constexpr ShapeLimit kLimits[] = {
    {"num_hidden_layers", 1, 10000},        {"hidden_size", 1, 1 << 20},           {"num_attention_heads", 1, 1 << 16},
    {"num_key_value_heads", 1, 1 << 16},    {"head_dim", 1, 1 << 16},              {"vocab_size", 1, 1 << 24},
    {"intermediate_size", 1, 1 << 24},      {"moe_intermediate_size", 1, 1 << 24}, {"shared_expert_intermediate_size", 0, 1 << 24},
    {"intermediate_size_mlp", 1, 1 << 24},  {"num_local_experts", 0, 1 << 16},     {"num_experts", 0, 1 << 16},
    {"n_routed_experts", 0, 1 << 16},       {"num_experts_per_tok", 0, 1 << 16},   {"moe_topk", 0, 1 << 16},
    {"kv_lora_rank", 1, 1 << 16},           {"qk_rope_head_dim", 1, 1 << 16},      {"qk_nope_head_dim", 1, 1 << 16},
    {"v_head_dim", 1, 1 << 16},             {"q_lora_rank", 0, 1 << 20},           {"first_k_dense_replace", 0, 10000},
    {"n_shared_experts", 0, 1024},          {"num_shared_experts", 0, 1024},       {"interleave_moe_layer_step", 1, 10000},
    {"attention_chunk_size", 1, 1 << 30},   {"sliding_window", 1, 1 << 30},        {"sliding_window_pattern", 1, 10000},
    {"max_position_embeddings", 1, 1L << 30}, {"linear_num_key_heads", 1, 1 << 16},   {"linear_num_value_heads", 1, 1 << 16},
    {"linear_key_head_dim", 1, 1 << 16},      {"linear_value_head_dim", 1, 1 << 16}, {"linear_conv_kernel_dim", 1, 1024},
    {"full_attention_interval", 1, 10000},
};

// llama.cpp's names (src/llama-arch.cpp, LLM_KV_*) for the values above.
constexpr std::pair<std::string_view, const char*> kGgufKeys[] = {
    {"block_count", "num_hidden_layers"},
    {"embedding_length", "hidden_size"},
    {"feed_forward_length", "intermediate_size"},
    {"expert_feed_forward_length", "moe_intermediate_size"},
    {"attention.head_count", "num_attention_heads"},
    {"attention.head_count_kv", "num_key_value_heads"},
    {"attention.key_length", "head_dim"},
    {"attention.value_length", "v_head_dim"},
    {"vocab_size", "vocab_size"},
    {"expert_count", "num_local_experts"},
    {"expert_used_count", "num_experts_per_tok"},
    {"expert_shared_count", "n_shared_experts"},
    {"leading_dense_block_count", "first_k_dense_replace"},
    {"attention.kv_lora_rank", "kv_lora_rank"},
    {"attention.q_lora_rank", "q_lora_rank"},
    {"rope.dimension_count", "qk_rope_head_dim"},
    {"attention.sliding_window", "sliding_window"},
    {"context_length", "max_position_embeddings"},
    {"ssm.conv_kernel", "linear_conv_kernel_dim"},
    {"ssm.state_size", "linear_key_head_dim"},
    {"ssm.group_count", "linear_num_key_heads"},
    {"ssm.time_step_rank", "linear_num_value_heads"},
    {"full_attention_interval", "full_attention_interval"},
};

}  // namespace

const ShapeLimit& shape_limit(std::string_view config_key) {
  static const ShapeLimit any{"", 0, 1 << 30};
  for (const auto& r : kLimits)
    if (config_key == r.key) return r;
  return any;
}

const char* config_key_of_gguf(std::string_view gguf_key) {
  for (const auto& [gguf, config] : kGgufKeys)
    if (gguf_key == gguf) return config;
  return nullptr;
}

}  // namespace qsel
