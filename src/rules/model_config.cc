// --model-config: a Hugging Face config.json read into a ModelSpec, with the
// parameter count derived from the architecture (norms and biases ignored).
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "qsel/artifact/binary_file.h"
#include "qsel/core/errors.h"
#include "qsel/core/text.h"
#include "qsel/rules/model_spec.h"

namespace qsel {
namespace {

using nlohmann::json;

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

long positive(const json& d, const Located& at, const char* key, bool required, long fallback = 0) {
  if (!d.contains(key) || d[key].is_null()) {
    if (required) throw UsageError(fmt::format("{}: missing \"{}\" (a positive integer)", at.path, key));
    return fallback;
  }
  const json& v = d[key];
  if (!v.is_number_integer() || v.get<long>() <= 0)
    throw UsageError(fmt::format("{}: \"{}\" must be a positive integer, got {}", at.key(key), key, v.dump()));
  return v.get<long>();
}

long first_of(const json& d, const Located& at, std::initializer_list<const char*> keys) {
  for (const char* k : keys)
    if (d.contains(k) && !d[k].is_null()) return positive(d, at, k, false);
  return 0;
}

double attention_params(const json& d, const ModelSpec& m) {
  if (m.attention == "mla") {
    double nope = d.value("qk_nope_head_dim", 128), v = d.value("v_head_dim", 128), q_lora = d.value("q_lora_rank", 0);
    double qdim = m.heads * (nope + m.rope_dim);
    double q = q_lora > 0 ? m.hidden * q_lora + q_lora * qdim : m.hidden * qdim;
    return q + m.hidden * (m.kv_lora_rank + m.rope_dim) + m.kv_lora_rank * m.heads * (nope + v) + m.heads * v * m.hidden;
  }
  double qo = 2.0 * m.hidden * m.heads * m.head_dim;
  return qo + 2.0 * m.hidden * m.kv_heads * m.head_dim;
}

void count_params(const json& d, const Located& at, ModelSpec& m) {
  double inter = first_of(d, at, {"intermediate_size"});
  double moe_inter = first_of(d, at, {"moe_intermediate_size"});
  if (moe_inter == 0) moe_inter = inter;
  long dense_layers = m.moe() ? d.value("first_k_dense_replace", 0L) : m.layers;
  double shared = d.value("n_shared_experts", d.value("num_shared_experts", 0.0));
  double shared_inter = first_of(d, at, {"shared_expert_intermediate_size"});
  bool llama4 = d.value("model_type", std::string()).rfind("llama4", 0) == 0;
  if (llama4 && shared == 0) shared = 1;  // Llama 4 MoE layers always carry one shared expert (no config field)
  if (llama4) {
    long step = d.value("interleave_moe_layer_step", 1L);
    dense_layers = step > 1 ? m.layers - m.layers / step : 0;
    inter = first_of(d, at, {"intermediate_size_mlp"}) > 0 && dense_layers > 0 ? first_of(d, at, {"intermediate_size_mlp"}) : inter;
  }
  double attn = attention_params(d, m) * m.layers;
  double dense_mlp = 3.0 * m.hidden * inter * dense_layers;
  double expert = 3.0 * m.hidden * moe_inter;
  long moe_layers = m.layers - dense_layers;
  double shared_params = shared_inter > 0 ? 3.0 * m.hidden * shared_inter : shared * expert;  // per MoE layer
  double all_experts = (m.experts * expert + shared_params) * moe_layers;
  double active_experts = (m.active_experts * expert + shared_params) * moe_layers;
  double emb = m.embedding_params_b() * 1e9;
  m.params_b = (attn + dense_mlp + all_experts + emb) / 1e9;
  m.active_params_b = m.moe() ? (attn + dense_mlp + active_experts + emb) / 1e9 : m.params_b;
  m.notes.push_back(fmt::format("parameter count derived from {} ({:.2f}B; norms and biases ignored)", at.path, m.params_b));
}

// Llama 4's chunked local attention: the RoPE layers keep at most one chunk of KV.
void chunked_attention(const json& d, ModelSpec& m) {
  if (!d.contains("attention_chunk_size") || !d["attention_chunk_size"].is_number_integer()) return;
  long chunk = d["attention_chunk_size"].get<long>();
  if (chunk <= 0) return;
  int chunked = m.layers - m.layers / 4;  // transformers' default: every 4th layer is NoPE and global
  if (d.contains("no_rope_layers") && d["no_rope_layers"].is_array()) {
    chunked = 0;
    for (const auto& v : d["no_rope_layers"]) chunked += v == 1;  // 1 = a RoPE (chunked) layer
  }
  m.window = static_cast<int>(std::min<long>(chunk, 1L << 30));
  m.sliding_layers = chunked;
  m.attention = "sliding-window";
  m.notes.push_back(fmt::format("attention_chunk_size {}: {} chunked-attention layers keep at most one chunk of KV (sized like a "
                                "sliding window)", chunk, chunked));
}

void sliding_window(const json& d, ModelSpec& m) {
  if (!d.contains("sliding_window") || !d["sliding_window"].is_number_integer()) return;
  if (d.contains("use_sliding_window") && d["use_sliding_window"] == false) return;
  m.window = d["sliding_window"].get<int>();
  m.sliding_layers = m.layers;
  if (d.contains("layer_types") && d["layer_types"].is_array()) {
    m.sliding_layers = 0;
    for (const auto& t : d["layer_types"]) m.sliding_layers += t == "sliding_attention";
  } else if (d.contains("sliding_window_pattern") && d["sliding_window_pattern"].is_number_integer()) {
    int p = d["sliding_window_pattern"].get<int>();
    m.sliding_layers = p > 0 ? m.layers - m.layers / p : m.layers;
  }
  if (m.sliding_layers > 0) m.attention = m.sliding_layers == m.layers ? "sliding-window" : "hybrid";
}

}  // namespace

ModelSpec model_from_config(const std::string& path) {
  std::string text = read_text_file(path, 16 << 20, "config.json");
  Located at{path, text};
  json d;
  try {
    d = json::parse(text);
  } catch (const json::parse_error& e) {
    std::string msg = e.what();
    throw UsageError(fmt::format("{}: invalid JSON: {}", at.where(e.byte > 0 ? e.byte - 1 : 0), msg.substr(msg.rfind(": ") + 2)));
  }
  if (!d.is_object()) throw UsageError(fmt::format("{}: expected a JSON object (a Hugging Face config.json)", path));
  std::string architecture;
  if (d.contains("architectures") && d["architectures"].is_array() && !d["architectures"].empty() && d["architectures"][0].is_string())
    architecture = d["architectures"][0].get<std::string>();
  if (d.contains("text_config") && d["text_config"].is_object()) d = d["text_config"];
  ModelSpec m;
  m.origin = "config";
  m.layers = static_cast<int>(positive(d, at, "num_hidden_layers", true));
  m.hidden = static_cast<int>(positive(d, at, "hidden_size", true));
  m.heads = static_cast<int>(positive(d, at, "num_attention_heads", true));
  m.kv_heads = static_cast<int>(positive(d, at, "num_key_value_heads", false, m.heads));
  m.head_dim = static_cast<int>(positive(d, at, "head_dim", false, m.hidden / m.heads));
  m.vocab = positive(d, at, "vocab_size", true);
  m.kv_layers = m.layers;
  if (d.contains("tie_word_embeddings") && d["tie_word_embeddings"].is_boolean()) {
    m.tied_embeddings = d["tie_word_embeddings"].get<bool>();
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
  if (d.contains("kv_lora_rank") && d["kv_lora_rank"].is_number_integer()) {
    m.attention = "mla";
    m.kv_lora_rank = static_cast<int>(positive(d, at, "kv_lora_rank", true));
    m.rope_dim = static_cast<int>(positive(d, at, "qk_rope_head_dim", false, 64));
  }
  sliding_window(d, m);
  chunked_attention(d, m);
  count_params(d, at, m);
  std::string name = d.value("_name_or_path", std::string());
  std::string size = m.params_b >= 1 ? fmt::format("{:.1f}B", m.params_b) : fmt::format("{:.0f}M", m.params_b * 1000);
  m.description = fmt::format("{} {} from {}{} ({} layers, {})", size, m.moe() ? "MoE" : "dense", path,
                              name.empty() ? "" : " (" + name + ")", m.layers,
                              m.attention == "mla" ? fmt::format("MLA, KV rank {}", m.kv_lora_rank)
                                                   : fmt::format("{} KV heads", m.kv_heads));
  return m;
}

}  // namespace qsel
