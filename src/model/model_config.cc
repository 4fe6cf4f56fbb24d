// --model-config: a Hugging Face config.json read into a ModelSpec, with the
// parameter count derived from the architecture (norms and biases ignored).
#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "qsel/artifact/binary_file.h"
#include "qsel/core/errors.h"
#include "qsel/core/param_count.h"
#include "qsel/core/text.h"
#include "qsel/model/model_spec.h"
#include "qsel/model/shape_limits.h"

namespace qsel {
using nlohmann::json;
namespace {

struct Located {
  const std::string& path;
  const std::string& text;
  std::string where(std::size_t pos) const {
    int line = 1;
    std::size_t start = 0;
    for (std::size_t i = 0; i < pos && i < text.size(); ++i)
      if (text[i] == '\n') { ++line; start = i + 1; }
    return fmt::format("{}:{}:{}", path, line, utf8_length(std::string_view(text).substr(start, pos - start)) + 1);
  }
  std::string key(const std::string& k) const {
    auto pos = text.find("\"" + k + "\"");
    return pos == std::string::npos ? path : where(pos);
  }
};

// A config integer inside its range; `fallback` when absent or null (unless required).
long integer(const json& d, const Located& at, const char* key, bool required, long fallback = 0) {
  if (!d.contains(key) || d[key].is_null()) {
    if (required) throw UsageError(fmt::format("{}: missing \"{}\" (a positive integer)", at.path, key));
    return fallback;
  }
  const json& v = d[key];
  const ShapeLimit& r = shape_limit(key);
  bool whole = v.is_number_integer() || (v.is_number_float() && v.get<double>() == std::floor(v.get<double>()));
  double x = v.is_number() ? v.get<double>() : -1;
  if (!whole || !(x >= r.min && x <= r.max))
    throw UsageError(fmt::format("{}: \"{}\" must be an integer from {} to {}, got {}", at.key(key), key, r.min, r.max,
                                 v.is_string() ? quote_value(v.get<std::string>()) : quote_value(v.dump())));
  return static_cast<long>(x);
}

long first_of(const json& d, const Located& at, std::initializer_list<const char*> keys) {
  for (const char* k : keys)
    if (d.contains(k) && !d[k].is_null()) return integer(d, at, k, false);
  return 0;
}

bool boolean(const json& d, const Located& at, const char* key, bool fallback) {
  if (!d.contains(key) || d[key].is_null()) return fallback;
  if (!d[key].is_boolean()) throw UsageError(fmt::format("{}: \"{}\" must be true or false, got {}", at.key(key), key, quote_value(d[key].dump())));
  return d[key].get<bool>();
}

std::string string_field(const json& d, const char* key) {
  return d.contains(key) && d[key].is_string() ? d[key].get<std::string>() : "";
}

void count_config_params(const json& d, const Located& at, ModelSpec& m) {
  DecoderShape s;
  s.layers = m.layers;
  s.hidden = m.hidden;
  s.heads = m.heads;
  s.kv_heads = m.kv_heads;
  s.head_dim = m.head_dim;
  s.vocab = static_cast<double>(m.vocab);
  s.tied_embeddings = m.tied_embeddings;
  s.intermediate = first_of(d, at, {"intermediate_size"});
  s.expert_intermediate = first_of(d, at, {"moe_intermediate_size"});
  if (s.expert_intermediate == 0) s.expert_intermediate = s.intermediate;
  if (m.moe() && s.expert_intermediate > 0 && s.expert_intermediate < 1e7) m.expert_ffn = static_cast<int>(s.expert_intermediate);
  s.dense_layers = m.moe() ? std::min<long>(integer(d, at, "first_k_dense_replace", false, 0), m.layers) : m.layers;
  s.shared_experts = first_of(d, at, {"n_shared_experts", "num_shared_experts"});
  s.shared_intermediate = first_of(d, at, {"shared_expert_intermediate_size"});
  bool llama4 = string_field(d, "model_type").rfind("llama4", 0) == 0;
  if (llama4 && s.shared_experts == 0) s.shared_experts = 1;  // Llama 4 MoE layers always carry one shared expert (no config field)
  if (llama4) {
    long step = integer(d, at, "interleave_moe_layer_step", false, 1);
    s.dense_layers = step > 1 ? m.layers - m.layers / step : 0;
    if (first_of(d, at, {"intermediate_size_mlp"}) > 0 && s.dense_layers > 0) s.intermediate = first_of(d, at, {"intermediate_size_mlp"});
  }
  s.experts = m.experts;
  s.active_experts = m.active_experts;
  if (m.attention == "mla") {
    s.mla = true;
    s.kv_lora_rank = m.kv_lora_rank;
    s.rope_dim = m.rope_dim;
    s.nope_dim = integer(d, at, "qk_nope_head_dim", false, 128);
    s.v_head_dim = integer(d, at, "v_head_dim", false, 128);
    s.q_lora_rank = integer(d, at, "q_lora_rank", false, 0);
  }
  ParamCount c = count_params(s);
  m.params_b = c.total / 1e9;
  m.active_params_b = m.moe() ? c.active / 1e9 : m.params_b;
  m.notes.push_back(fmt::format("parameter count derived from {} ({:.2f}B; norms and biases ignored)", at.path, m.params_b));
}

// Llama 4's chunked local attention: the RoPE layers keep at most one chunk of KV.
void chunked_attention(const json& d, const Located& at, ModelSpec& m) {
  long chunk = integer(d, at, "attention_chunk_size", false, 0);
  if (chunk <= 0) return;
  int chunked = m.layers - m.layers / 4;  // transformers' default: every 4th layer is NoPE and global
  if (d.contains("no_rope_layers") && d["no_rope_layers"].is_array()) {
    chunked = 0;
    for (const auto& v : d["no_rope_layers"]) chunked += v == 1;  // 1 = a RoPE (chunked) layer
    chunked = std::min(chunked, m.layers);
  }
  m.window = static_cast<int>(chunk);
  m.sliding_layers = chunked;
  m.attention = "sliding-window";
  m.notes.push_back(fmt::format("attention_chunk_size {}: {} chunked-attention layers keep at most one chunk of KV (sized like a "
                                "sliding window)", chunk, chunked));
}

void sliding_window(const json& d, const Located& at, ModelSpec& m) {
  long window = integer(d, at, "sliding_window", false, 0);
  if (window <= 0 || !boolean(d, at, "use_sliding_window", true)) return;
  m.window = static_cast<int>(window);
  m.sliding_layers = m.layers;
  if (d.contains("layer_types") && d["layer_types"].is_array()) {
    m.sliding_layers = 0;
    for (const auto& t : d["layer_types"]) m.sliding_layers += t == "sliding_attention";
    m.sliding_layers = std::min(m.sliding_layers, m.layers);
  } else if (long p = integer(d, at, "sliding_window_pattern", false, 0); p > 0) {
    m.sliding_layers = static_cast<int>(m.layers - m.layers / p);
  }
  if (m.sliding_layers > 0) m.attention = m.sliding_layers == m.layers ? "sliding-window" : "hybrid";
}

// Gated DeltaNet hybrids (Qwen3-Next, Qwen3.5/3.6): the linear-attention layers keep a recurrent state,
// not a KV cache. Which layers: layer_types ("linear_attention"), else every full_attention_interval-th
// layer is full attention (transformers' Qwen3NextConfig default 4).
void linear_attention(const json& d, const Located& at, ModelSpec& m) {
  if (!d.contains("linear_num_value_heads") || d["linear_num_value_heads"].is_null()) return;
  LinearAttention& la = m.linear;
  la.value_heads = static_cast<int>(integer(d, at, "linear_num_value_heads", true));
  la.key_heads = static_cast<int>(integer(d, at, "linear_num_key_heads", true));
  la.key_dim = static_cast<int>(integer(d, at, "linear_key_head_dim", true));
  la.value_dim = static_cast<int>(integer(d, at, "linear_value_head_dim", true));
  la.conv_kernel = static_cast<int>(integer(d, at, "linear_conv_kernel_dim", false, 4));
  if (d.contains("layer_types") && d["layer_types"].is_array()) {
    la.layers = 0;
    for (const auto& t : d["layer_types"]) la.layers += t == "linear_attention";
    la.layers = std::min(la.layers, m.layers);
  } else {
    long interval = integer(d, at, "full_attention_interval", false, 4);
    la.layers = static_cast<int>(m.layers - m.layers / interval);
  }
  if (la.layers <= 0) return;
  m.kv_layers = m.layers - la.layers;
  m.attention = "hybrid";
  m.notes.push_back(fmt::format("{} of {} layers are linear attention (Gated DeltaNet): a fixed recurrent state per sequence instead "
                                "of a KV cache; {} layers hold the KV cache", la.layers, m.layers, m.kv_layers));
}

}  // namespace

ModelSpec model_from_config(const std::string& path) {
  return model_from_config_text(read_text_file(path, 16 << 20, "config.json"), path);
}

ModelSpec model_from_config_text(const std::string& text, const std::string& path) {
  if (std::size_t bad = find_invalid_utf8(text); bad != std::string::npos)
    throw UsageError(fmt::format("{}: byte {}: not valid UTF-8", path, bad));
  Located at{path, text};
  if (json_nesting(text) > kMaxJsonNesting)
    throw UsageError(fmt::format("{}: JSON nested deeper than {} levels (a Hugging Face config.json)", path, kMaxJsonNesting));
  json d;
  try {
    d = json::parse(text);
  } catch (const json::parse_error& e) {
    std::string msg = e.what();
    throw UsageError(fmt::format("{}: invalid JSON: {}", at.where(e.byte > 0 ? e.byte - 1 : 0), msg.substr(msg.rfind(": ") + 2)));
  } catch (const json::exception& e) {  // a number beyond the double range (out_of_range.406)
    std::string msg = e.what();
    throw UsageError(fmt::format("{}: invalid JSON: {}", path, msg.substr(msg.find("] ") + 2)));
  }
  if (!d.is_object()) throw UsageError(fmt::format("{}: expected a JSON object (a Hugging Face config.json)", path));
  std::string architecture;
  if (d.contains("architectures") && d["architectures"].is_array() && !d["architectures"].empty() && d["architectures"][0].is_string())
    architecture = d["architectures"][0].get<std::string>();
  // A config whose auto_map names its own classes runs the checkpoint's code: engines load it only when trusted.
  bool auto_map = d.contains("auto_map") && d["auto_map"].is_object() && !d["auto_map"].empty();
  if (d.contains("text_config") && d["text_config"].is_object()) d = d["text_config"];
  ModelSpec m;
  m.origin = "config";
  if (auto_map) m.remote_code = "config.json's auto_map names the checkpoint's own code";
  // Every value below is range-checked by integer(), so the narrowing casts are safe.
  m.layers = static_cast<int>(integer(d, at, "num_hidden_layers", true));
  m.hidden = static_cast<int>(integer(d, at, "hidden_size", true));
  m.heads = static_cast<int>(integer(d, at, "num_attention_heads", true));
  m.kv_heads = static_cast<int>(integer(d, at, "num_key_value_heads", false, m.heads));
  if (m.kv_heads > m.heads)
    throw UsageError(fmt::format("{}: \"num_key_value_heads\" ({}) is more than \"num_attention_heads\" ({})", at.key("num_key_value_heads"),
                                 m.kv_heads, m.heads));
  m.head_dim = static_cast<int>(integer(d, at, "head_dim", false, std::max(1, m.hidden / m.heads)));
  m.vocab = integer(d, at, "vocab_size", true);
  m.kv_layers = m.layers;
  if (d.contains("tie_word_embeddings") && !d["tie_word_embeddings"].is_null()) {
    m.tied_embeddings = boolean(d, at, "tie_word_embeddings", true);
  } else {
    m.tied_embeddings = true;  // transformers' PretrainedConfig default
    m.notes.push_back(fmt::format("{}: no tie_word_embeddings, so Hugging Face's PretrainedConfig default (tied) is assumed; some "
                                  "model classes default to untied (LlamaConfig), which would add a vocabulary-sized LM head",
                                  at.path));
  }
  m.architecture = architecture;
  m.attention = m.kv_heads == m.heads ? "mha" : "gqa";
  m.experts = static_cast<int>(first_of(d, at, {"num_local_experts", "num_experts", "n_routed_experts"}));
  m.active_experts = static_cast<int>(first_of(d, at, {"num_experts_per_tok", "moe_topk"}));
  if (m.experts > 0 && m.active_experts > m.experts)
    throw UsageError(fmt::format("{}: {} experts per token, but only {} experts", at.path, m.active_experts, m.experts));
  if (d.contains("kv_lora_rank") && !d["kv_lora_rank"].is_null()) {
    m.attention = "mla";
    m.kv_lora_rank = static_cast<int>(integer(d, at, "kv_lora_rank", true));
    m.rope_dim = static_cast<int>(integer(d, at, "qk_rope_head_dim", false, 64));
    // MLA's query/key head is the no-position part plus the rotary part (DeepSeek: 128 + 64);
    // hidden / heads means nothing there. The KV cache is sized from the rank, not from this.
    if (!d.contains("head_dim") || d["head_dim"].is_null())
      m.head_dim = static_cast<int>(integer(d, at, "qk_nope_head_dim", false, 128)) + m.rope_dim;
  }
  m.max_context = integer(d, at, "max_position_embeddings", false, 0);
  sliding_window(d, at, m);
  chunked_attention(d, at, m);
  linear_attention(d, at, m);
  count_config_params(d, at, m);
  std::string name = string_field(d, "_name_or_path");
  std::string size = m.params_b >= 1 ? fmt::format("{:.1f}B", m.params_b) : fmt::format("{:.0f}M", m.params_b * 1000);
  m.description = fmt::format("{} {} from {}{} ({} layers, {})", size, m.moe() ? "MoE" : "dense", path,
                              name.empty() ? "" : " (" + name + ")", m.layers,
                              m.attention == "mla" ? fmt::format("MLA, KV rank {}", m.kv_lora_rank)
                                                   : fmt::format("{} KV heads", m.kv_heads));
  return m;
}

}  // namespace qsel
