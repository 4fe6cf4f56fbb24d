#include "qsel/sizing/memory.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "qsel/core/ggml_types.h"
#include "qsel/core/json_number.h"
#include "qsel/sizing/gguf_bpw.h"

namespace qsel {
using nlohmann::json;
namespace {

bool has(const std::vector<std::string>& v, const char* s) { return std::find(v.begin(), v.end(), s) != v.end(); }

// MoE mixtures that quantize experts to one type and everything else to another
// (MXFP4_MOE): experts at the block-struct bpw, the rest at the promoted type's.
std::optional<double> mixture_weights(const Record& f, const ModelSpec& m) {
  if (!f.data.contains("mixture")) return std::nullopt;
  const json& mix = f.data["mixture"];
  if (mix.value("base_tensors", "all") != "experts") return std::nullopt;
  double expert_bpw = object_field(f.data, "bpw").value("struct", 0.0);
  const auto& promoted = array_field(mix, "promoted");
  const GgmlType* rest = promoted.empty() ? nullptr : find_ggml_type(promoted[0].value("type", ""));
  if (expert_bpw <= 0 || !rest) return std::nullopt;
  if (!m.moe()) return m.params_b * rest->bpw() / 8;  // no expert tensors: everything takes the other type
  if (m.active_experts <= 0 || m.experts <= m.active_experts) return std::nullopt;
  double per_expert = m.params_per_expert_b();
  double experts = per_expert * m.experts;
  return (experts * expert_bpw + (m.params_b - experts) * rest->bpw()) / 8;
}

// Parameters the format's checkpoints keep at 16-bit (default: embeddings and LM head).
double sixteen_bit_params_b(const Record& f, const ModelSpec& m) {
  auto kept = f.strings("/unquantized_tensors");
  if (!f.data.contains("unquantized_tensors")) kept = {"embeddings", "lm_head"};
  double per_table = static_cast<double>(m.vocab) * m.hidden / 1e9;
  double out = 0;
  if (has(kept, "embeddings")) out += per_table;
  if (has(kept, "lm_head") && !m.tied_embeddings) out += per_table;
  if (has(kept, "attention")) out += m.attention_params_b();
  return std::min(m.params_b, out + m.kept_16bit_params_b);  // and what the model's own checkpoints keep (model kept_16bit)
}

}  // namespace

bool is_baseline(const Record& format) { return format.str("scheme") == "unquantized"; }

bool weight_only(const Record& format) { return format.data.value("weight_only", false); }

Bpw choose_bpw(const Record& f, const ModelSpec& m, const Graph* g) {
  // A release of this format whose published file size is recorded (Gemma 3's QAT Q4_0 keeps 16-bit embeddings):
  // the file, not the type's nominal bits.
  for (const auto& r : m.releases)
    if (r.format == f.id && r.file_gb > 0 && r.registry.empty() && m.params_b > 0 && !(m.checkpoint && m.checkpoint->format == f.id))
      return {r.file_gb * 8 / m.params_b, fmt::format("the published file of {} ({:g} GB)", r.repo, r.file_gb), true};
  if (m.checkpoint && m.checkpoint->format == f.id && m.checkpoint->bpw() > 0)
    return {m.checkpoint->bpw(), fmt::format("measured from the checkpoint's tensors ({:.2f} GB for {:.2f}B parameters)",
                                             m.checkpoint->bytes / 1e9, m.checkpoint->params / 1e9), true};
  if (is_baseline(f)) return {16, "16-bit", true};
  if (f.str("scheme") == "gguf")
    if (auto b = measured_gguf_bpw(f, m, g)) return *b;
  const auto& bpw = object_field(f.data, "bpw");
  if (bpw.value("nominal", json()).is_number()) return {bpw["nominal"].get<double>(), "nominal"};
  if (bpw.value("struct", json()).is_number()) return {bpw["struct"].get<double>(), "block struct"};
  double bits = number_or(f.data, "weight_bits");
  int group = f.data.value("weight_group_size", json()).is_number() ? f.data["weight_group_size"].get<int>() : 0;
  if (bits <= 0) return {};
  if (group <= 0 && !weight_only(f))
    return {bits, fmt::format("derived: {:g}-bit weights; per-tensor or per-channel scales are negligible", bits)};
  if (group <= 0) return {bits, fmt::format("derived: {:g}-bit weights; group size unknown, so a lower bound", bits)};
  if (f.data.value("zero_points", false))
    return {bits + (16.0 + bits) / group, fmt::format("derived: {:g} + (16 + {:g})/{} (an fp16 scale and a packed zero point per group)",
                                                       bits, bits, group)};
  return {bits + 16.0 / group, fmt::format("derived: {:g} + 16/{} (an fp16 scale per group)", bits, group)};
}

// A model whose every GGUF keeps its experts in one type (gpt-oss: MXFP4) whatever the file's label:
// the experts at that type, the rest at the label's bits.
std::optional<double> fixed_experts(const Record& f, const ModelSpec& m, const Bpw& b) {
  if (f.str("scheme") != "gguf" || m.gguf_expert_bpw <= 0 || !m.moe() || b.source.rfind("measured on " + m.id, 0) == 0 ||
      m.active_experts <= 0 || m.experts <= m.active_experts || (m.checkpoint && m.checkpoint->format == f.id))
    return std::nullopt;
  if (f.data.contains("mixture") && f.data["mixture"].value("base_tensors", "all") == "experts")
    return std::nullopt;  // an experts-only mixture (MXFP4_MOE) already keeps the experts at its own type

  double per_expert = m.params_per_expert_b();
  double experts = per_expert * m.experts;
  return (experts * m.gguf_expert_bpw + (m.params_b - experts) * b.value) / 8;
}

double weights_gb(const Record& f, const ModelSpec& m, const Bpw& b) {
  if (auto fixed = fixed_experts(f, m, b)) return *fixed;
  if (auto mix = mixture_weights(f, m); mix && !b.whole_model) return *mix;  // not its base type (Rule 5)
  if (b.whole_model || f.str("scheme") == "gguf") return m.params_b * b.value / 8;
  double kept = sixteen_bit_params_b(f, m);
  return (m.params_b - kept) * b.value / 8 + kept * 2;
}

double library_tag_gb(double shown_gb, double estimate_gb) {
  if (shown_gb <= 0) return estimate_gb;
  double digit = shown_gb < 10 ? 0.1 : 1;
  // Rounded or cut to that digit: the file is at least half a digit under the figure and under one digit over it.
  return std::clamp(estimate_gb, shown_gb - digit / 2, shown_gb + digit);
}

double kv_cache_gb(const ModelSpec& m, long tokens, int batch, double bytes, bool windowed_layers) {
  double per_layer_token = m.attention == "mla" ? (m.kv_lora_rank + m.rope_dim) * bytes
                                                : 2.0 * m.kv_heads * m.head_dim * bytes;
  bool window = windowed_layers && m.sliding_window();
  int sliding = std::min(m.sliding_layers, m.kv_layers);
  double full_layers = m.kv_layers - (window ? sliding : 0);
  double windowed = window ? sliding * static_cast<double>(std::min<long>(tokens, m.window)) : 0;
  return (full_layers * tokens + windowed) * per_layer_token * batch / 1e9;
}

double recurrent_state_gb(const ModelSpec& m, int sequences, double bytes) {
  // llama.cpp: per layer and cell, r = n_embd_r() = (ssm_d_conv - 1) x (ssm_d_inner + 2 x ssm_n_group x ssm_d_state) and
  // s = n_embd_s() = ssm_d_state x ssm_d_inner values (src/llama-hparams.cpp); vLLM's gated_delta_net_state_shape the same.
  if (!m.linear.any() || sequences <= 0) return 0;
  return m.linear.layers * (m.linear.conv_values() + m.linear.state_values()) * bytes * sequences / 1e9;
}

}  // namespace qsel

namespace qsel {

std::string Layout::describe() const {
  if (layer_split) return layer_gpus > 1 ? fmt::format("layers over {} GPUs", layer_gpus) : "1 GPU";
  std::string s = fmt::format("TP {}", tp);
  if (pp > 1) s += fmt::format(" x PP {}", pp);
  if (ep) s += " + EP";
  if (dp > 1) s += fmt::format(", {} replicas", dp);
  if (idle > 0) s += fmt::format(" ({} GPU{} idle)", idle, idle == 1 ? "" : "s");
  return s;
}

}  // namespace qsel
