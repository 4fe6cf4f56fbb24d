// A GGUF file as a model: its shape from the metadata llama.cpp itself reads
// ({arch}.block_count, embedding_length, attention.head_count(_kv),
// attention.key_length, expert_count, expert_used_count, attention.sliding_window,
// attention.kv_lora_rank; llama.cpp src/llama-arch.cpp), its parameters counted
// from the tensors (GGUF dims are element counts).
#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string_view>

#include "qsel/core/errors.h"
#include "qsel/model/model_spec.h"
#include "qsel/model/shape_limits.h"

namespace qsel {
using nlohmann::json;
namespace {

// A shape value from the metadata, `fallback` when absent; stored per layer (an
// array), its first value. Checked against the range config.json's key for the
// same value has (model/shape_limits.h), so the two readers refuse alike.
class ShapeReader {
 public:
  ShapeReader(const GgufFile& g, std::string arch) : g_(g), arch_(std::move(arch)) {}

  // `zero_absent`: llama.cpp writes 0 for "none" there (no sliding window, no KV rank).
  long long get(std::string_view suffix, std::optional<long long> fallback, bool zero_absent = false) const {
    std::string key = arch_ + "." + std::string(suffix);
    const char* config_key = config_key_of_gguf(suffix);
    const ShapeLimit& r = shape_limit(config_key ? config_key : "");
    const json* v = g_.find(key);
    if (v && v->is_object() && v->contains("head") && !(*v)["head"].empty()) v = &(*v)["head"][0];
    if (!v) {
      if (!fallback) throw UsageError(fmt::format("{}: no {} in the GGUF metadata (a positive integer)", g_.path, key));
      return *fallback;
    }
    if (!v->is_number_integer() || (v->is_number_unsigned() && v->get<std::uint64_t>() > static_cast<std::uint64_t>(r.max)))
      throw UsageError(fmt::format("{}: {} is {}, not a plausible value ({} to {})", g_.path, key, v->dump(), r.min, r.max));
    long long x = v->get<long long>();
    if (x == 0 && zero_absent) return fallback.value_or(0);
    if (x < r.min || x > r.max) throw UsageError(fmt::format("{}: {} is {}, not a plausible value ({} to {})", g_.path, key, x, r.min, r.max));
    return x;
  }
  int required(std::string_view suffix) const { return static_cast<int>(get(suffix, std::nullopt)); }
  int optional(std::string_view suffix, long long fallback) const { return static_cast<int>(get(suffix, fallback)); }

 private:
  const GgufFile& g_;
  std::string arch_;
};

}  // namespace

ModelSpec model_from_gguf(const GgufFile& g) {
  std::string arch = g.string("general.architecture");
  if (arch.empty()) throw UsageError(fmt::format("{}: no general.architecture in the GGUF metadata", g.path));
  ShapeReader shape(g, arch);
  ModelSpec m;
  m.origin = "gguf";
  m.layers = shape.required("block_count");
  m.kv_layers = m.layers;
  m.hidden = shape.required("embedding_length");
  m.heads = shape.required("attention.head_count");
  m.kv_heads = shape.optional("attention.head_count_kv", m.heads);
  if (m.kv_heads > m.heads)
    throw UsageError(fmt::format("{}: {}.attention.head_count_kv ({}) is more than {}.attention.head_count ({})", g.path, arch, m.kv_heads,
                                 arch, m.heads));
  m.head_dim = shape.optional("attention.key_length", std::max(1, m.hidden / m.heads));
  long long vocab = shape.get("vocab_size", 0, true);
  if (vocab <= 0)
    if (const json* t = g.find("tokenizer.ggml.tokens"); t && t->is_object()) vocab = (*t)["length"].get<long long>();
  const ShapeLimit& vocab_limit = shape_limit("vocab_size");
  if (vocab < vocab_limit.min || vocab > vocab_limit.max)
    throw UsageError(fmt::format("{}: vocabulary size is {}, not a plausible value ({} to {})", g.path, vocab, vocab_limit.min, vocab_limit.max));
  m.vocab = vocab;
  m.experts = shape.optional("expert_count", 0);
  m.active_experts = shape.optional("expert_used_count", 0);
  if (m.moe()) m.expert_ffn = shape.optional("expert_feed_forward_length", 0);
  if (m.active_experts > m.experts)
    throw UsageError(fmt::format("{}: {}.expert_used_count ({}) is more than {}.expert_count ({})", g.path, arch, m.active_experts, arch,
                                 m.experts));
  if (int w = static_cast<int>(shape.get("attention.sliding_window", 0, true)); w > 0) {
    m.window = w;
    m.sliding_layers = m.layers;
    m.attention = "sliding-window";
  }
  m.attention = m.window > 0 ? m.attention : (m.kv_heads == m.heads ? "mha" : "gqa");
  if (int rank = static_cast<int>(shape.get("attention.kv_lora_rank", 0, true)); rank > 0) {
    m.attention = "mla";
    m.kv_lora_rank = rank;
    m.rope_dim = shape.optional("rope.dimension_count", 64);
  }
  // A Gated DeltaNet hybrid (qwen3next, qwen35, qwen35moe): llama.cpp's ssm.* keys describe its linear layers
  // (ssm.inner_size = value heads x value dim, ssm.state_size = the key dim, ssm.group_count = the key heads,
  // ssm.time_step_rank = the value heads), and every full_attention_interval-th layer is full attention.
  if (int interval = static_cast<int>(shape.get("full_attention_interval", 0, true)); interval > 0) {
    int inner = static_cast<int>(shape.get("ssm.inner_size", 0, true));
    int value_heads = shape.optional("ssm.time_step_rank", 0);
    if (inner > 0 && value_heads > 0 && inner % value_heads == 0) {
      m.linear.value_heads = value_heads;
      m.linear.value_dim = inner / value_heads;
      m.linear.key_dim = shape.optional("ssm.state_size", 0);
      m.linear.key_heads = shape.optional("ssm.group_count", 0);
      m.linear.conv_kernel = shape.optional("ssm.conv_kernel", 4);
      m.linear.layers = m.layers - m.layers / interval;
      m.kv_layers = m.layers - m.linear.layers;
      m.attention = "hybrid";
    }
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
