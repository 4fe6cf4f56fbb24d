// QS041: a model's params_b is not what its shape fields count.
#include <cmath>

#include <fmt/format.h>

#include "checks.h"
#include "qsel/core/json_number.h"
#include "qsel/core/param_count.h"
#include "util.h"

namespace qsel::lint_checks {
namespace {

constexpr RuleInfo kInfo{
    "QS041", "param-count-mismatch", Severity::Error, false,
    "A model's params_b is more than 2% away from the count its shape fields give.",
    {R"(A model record whose `params_b` differs by more than 2% from the parameters its shape fields count: embeddings (twice unless `tie_embeddings`), Q/K/V/O projections of `heads` and `kv_heads` heads of `head_dim` (MLA's low-rank projections when `mla` gives `kv_lora_rank`, `qk_rope_head_dim`, `qk_nope_head_dim` and `v_head_dim`), a gated FFN of `intermediate_size` on every dense layer, and on MoE layers `moe.experts` experts of `moe.expert_intermediate_size` plus the shared ones (`moe.shared_experts`, or `moe.shared_intermediate_size`); `moe.dense_layers` are the layers with a dense FFN. Norms and biases are left out (well under 1%), and `other_params_b` — a vision or audio encoder, per-layer embeddings — is added. Records the shape cannot count are skipped: hybrid (linear-attention) layers, an MoE without its expert width, MLA without its ranks. Without `tie_embeddings`, the nearer of the two counts is taken.)",
     R"(`params_b` sizes every answer: weights are parameters times bits per weight, and measured bits per weight are file sizes divided by it. A model card's nominal "8B" or "70B" is a name, not a count — InternLM3-8B has 8.80 B by its own layer sizes — and a nominal count puts a 4-bit plan's weights 10% off, and every bits-per-weight measured on the model with them. Issue 25 fixed two such counts by hand; the shape fields in the same record settle it mechanically.)",
     R"(# models/internlm3-8b.yaml
params_b: 8
layers: 48
hidden_size: 4096
intermediate_size: 10240
heads: 32
kv_heads: 2
head_dim: 128
vocab_size: 128512
tie_embeddings: false)",
     R"(models/internlm3-8b.yaml:2:11: error: params_b 8 is 9.1% below the 8.80 B its shape fields count (embeddings 1.05 B, attention 1.71 B, FFN 6.04 B): write the counted figure, or the checkpoint's own count [QS041 param-count-mismatch])",
     R"(Take the count from the checkpoint (the safetensors index's `total_size`, llama-bench's `params` column, the card's exact figure) or from the shape; a figure that disagrees with the shape by more than 2% usually means a wrong shape field or a nominal count. Weights the shape fields do not describe — a vision tower — go in `other_params_b`, with the source in `notes`.)"}};

double num(const json& j, const char* key) { return number_or(j, key, 0); }

struct Parts {
  double emb = 0, attn = 0, ffn = 0, total = 0;
};

Parts parts_of(const DecoderShape& s) {
  Parts p;
  p.emb = s.vocab * s.hidden * (s.tied_embeddings ? 1 : 2);
  p.attn = attention_params(s) * s.layers;
  p.total = count_params(s).total;
  p.ffn = p.total - p.emb - p.attn;
  return p;
}

// The record's shape, or false when it cannot be counted from its fields.
bool shape_of(const Record& r, DecoderShape& s) {
  const json& d = r.data;
  s.layers = num(d, "layers");
  s.hidden = num(d, "hidden_size");
  s.heads = num(d, "heads");
  s.vocab = num(d, "vocab_size");
  if (s.layers <= 0 || s.hidden <= 0 || s.heads <= 0 || s.vocab <= 0) return false;
  if (r.str("attention") == "hybrid") return false;  // linear-attention layers: not in the shape fields
  s.kv_heads = num(d, "kv_heads") > 0 ? num(d, "kv_heads") : s.heads;
  s.head_dim = num(d, "head_dim") > 0 ? num(d, "head_dim") : std::floor(s.hidden / s.heads);
  s.intermediate = num(d, "intermediate_size");
  const json& moe = field(r, "moe");
  if (moe.is_object() && num(moe, "experts") > 0) {
    s.experts = num(moe, "experts");
    s.active_experts = num(moe, "active_experts");
    s.expert_intermediate = num(moe, "expert_intermediate_size");
    s.shared_experts = num(moe, "shared_experts");
    s.shared_intermediate = num(moe, "shared_intermediate_size");
    s.dense_layers = std::min(num(moe, "dense_layers"), s.layers);
    if (s.expert_intermediate <= 0 || (s.dense_layers > 0 && s.intermediate <= 0)) return false;
  } else {
    if (s.intermediate <= 0) return false;
    s.dense_layers = s.layers;
  }
  if (r.str("attention") == "mla") {
    const json& mla = field(r, "mla");
    if (!mla.is_object()) return false;
    s.mla = true;
    s.kv_lora_rank = num(mla, "kv_lora_rank");
    s.rope_dim = num(mla, "qk_rope_head_dim");
    s.nope_dim = num(mla, "qk_nope_head_dim");
    s.v_head_dim = num(mla, "v_head_dim");
    s.q_lora_rank = num(mla, "q_lora_rank");
    if (s.kv_lora_rank <= 0 || s.nope_dim <= 0 || s.v_head_dim <= 0) return false;
  }
  return true;
}

void each(CheckContext& c, const Record& r) {
  if (r.kind != Kind::Model) return;
  double stated = num(r.data, "params_b");
  DecoderShape s;
  if (stated <= 0 || !shape_of(r, s)) return;
  const json& tie = field(r, "tie_embeddings");
  double other = num(r.data, "other_params_b") * 1e9;
  auto off = [&](const Parts& p) { return (stated * 1e9 - (p.total + other)) / (p.total + other); };
  Parts p;
  if (tie.is_boolean()) {
    s.tied_embeddings = tie.get<bool>();
    p = parts_of(s);
  } else {  // not given: the nearer of the two
    s.tied_embeddings = true;
    Parts tied = parts_of(s);
    s.tied_embeddings = false;
    Parts untied = parts_of(s);
    p = std::fabs(off(tied)) <= std::fabs(off(untied)) ? tied : untied;
  }
  double rel = off(p);
  if (std::fabs(rel) <= 0.02) return;
  std::string extra = other > 0 ? fmt::format(", other {:.2f} B", other / 1e9) : "";
  c.report(r, "/params_b",
           fmt::format("params_b {} is {:.1f}% {} the {:.2f} B its shape fields count (embeddings {:.2f} B, attention {:.2f} B, FFN "
                       "{:.2f} B{}): write the counted figure, or the checkpoint's own count",
                       fmt::format("{}", stated), std::fabs(rel) * 100, rel < 0 ? "below" : "above", (p.total + other) / 1e9, p.emb / 1e9,
                       p.attn / 1e9, p.ffn / 1e9, extra));
}

}  // namespace

Check param_count_mismatch() { return {.info = &kInfo, .each = each}; }

}  // namespace qsel::lint_checks
