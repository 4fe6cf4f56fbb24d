// A GGUF file as a model: its shape from the metadata llama.cpp itself reads
// ({arch}.block_count, embedding_length, attention.head_count(_kv),
// attention.key_length, expert_count, expert_used_count, attention.sliding_window,
// attention.kv_lora_rank; llama.cpp src/llama-arch.cpp), its parameters counted
// from the tensors (GGUF dims are element counts).
#include <fmt/format.h>

#include "qsel/core/errors.h"
#include "qsel/model/model_spec.h"

namespace qsel {
namespace {

using ojson = nlohmann::ordered_json;

// A count that may be stored per layer (an array): its first value.
long long count(const GgufFile& g, const std::string& key, long long fallback = 0) {
  const ojson* v = g.find(key);
  if (!v) return fallback;
  if (v->is_number_integer()) return v->get<long long>();
  if (v->is_object() && v->contains("head") && !(*v)["head"].empty() && (*v)["head"][0].is_number_integer())
    return (*v)["head"][0].get<long long>();
  return fallback;
}

int checked(const GgufFile& g, const std::string& key, long long v, long long max) {
  if (v <= 0 || v > max) throw UsageError(fmt::format("{}: {} is {}, not a plausible value (1 to {})", g.path, key, v, max));
  return static_cast<int>(v);
}

}  // namespace

ModelSpec model_from_gguf(const GgufFile& g) {
  std::string arch = g.string("general.architecture");
  if (arch.empty()) throw UsageError(fmt::format("{}: no general.architecture in the GGUF metadata", g.path));
  auto key = [&](const char* k) { return arch + "." + k; };
  ModelSpec m;
  m.origin = "gguf";
  m.layers = checked(g, key("block_count"), count(g, key("block_count")), 100000);
  m.kv_layers = m.layers;
  m.hidden = checked(g, key("embedding_length"), count(g, key("embedding_length")), 1 << 20);
  m.heads = checked(g, key("attention.head_count"), count(g, key("attention.head_count")), 1 << 16);
  m.kv_heads = checked(g, key("attention.head_count_kv"), count(g, key("attention.head_count_kv"), m.heads), 1 << 16);
  m.head_dim = checked(g, key("attention.key_length"), count(g, key("attention.key_length"), m.hidden / m.heads), 1 << 16);
  long long vocab = count(g, key("vocab_size"));
  if (vocab <= 0)
    if (const ojson* t = g.find("tokenizer.ggml.tokens"); t && t->is_object()) vocab = (*t)["length"].get<long long>();
  m.vocab = checked(g, "vocabulary size", vocab, 1 << 24);
  m.experts = static_cast<int>(count(g, key("expert_count")));
  m.active_experts = static_cast<int>(count(g, key("expert_used_count")));
  if (long long w = count(g, key("attention.sliding_window")); w > 0) {
    m.window = checked(g, key("attention.sliding_window"), w, 1 << 30);
    m.sliding_layers = m.layers;
    m.attention = "sliding-window";
  }
  m.attention = m.window > 0 ? m.attention : (m.kv_heads == m.heads ? "mha" : "gqa");
  if (long long rank = count(g, key("attention.kv_lora_rank")); rank > 0) {
    m.attention = "mla";
    m.kv_lora_rank = checked(g, key("attention.kv_lora_rank"), rank, 1 << 16);
    m.rope_dim = static_cast<int>(count(g, key("rope.dimension_count"), 64));
  }
  double total = 0, experts = 0;
  bool output = false;
  for (const auto& t : g.tensors) {
    total += static_cast<double>(t.elements);
    if (t.name.find("_exps") != std::string::npos) experts += static_cast<double>(t.elements);
    output = output || t.name == "output.weight";
  }
  m.tied_embeddings = !output;
  m.params_b = total / 1e9;
  m.active_params_b = m.moe() && m.active_experts > 0 ? (total - experts + experts * m.active_experts / m.experts) / 1e9 : m.params_b;
  std::string name = g.string("general.name");
  std::string size = m.params_b >= 1 ? fmt::format("{:.1f}B", m.params_b) : fmt::format("{:.0f}M", m.params_b * 1000);
  m.description = fmt::format("{} {} from {}{} ({} layers, {})", size, m.moe() ? "MoE" : "dense", g.path,
                              name.empty() ? "" : " (" + name + ")", m.layers,
                              m.attention == "mla" ? fmt::format("MLA, KV rank {}", m.kv_lora_rank) : fmt::format("{} KV heads", m.kv_heads));
  m.notes.push_back(fmt::format("shape read from the GGUF metadata ({} architecture); {:.2f}B parameters counted from its {} tensors", arch,
                                m.params_b, g.tensors.size()));
  return m;
}

}  // namespace qsel
