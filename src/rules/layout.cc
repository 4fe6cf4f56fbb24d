// Parallel layouts from the engine's own rules (engine `tensor_parallel`): which tensor-parallel
// sizes it accepts for a model and format, which launch flags express a layout, and the options
// worth sizing for a GPU count. compute_memory.cc sizes each and keeps the best that fits.
#include "qsel/rules/layout.h"
#include "qsel/core/json_number.h"

#include <algorithm>

#include <fmt/format.h>

#include "qsel/core/text.h"

namespace qsel {
using nlohmann::json;
namespace {

json rule_of(const Record* engine) { return engine ? engine->data.value("tensor_parallel", json()) : json(); }

std::string flag_of(const json& rule, const char* dim) {
  const json flags = object_field(rule, "flags");
  return flags.value(dim, std::string());
}

// "--tensor-parallel-size {n}" at n; a switch ("--enable-expert-parallel") as it is.
std::string with_size(const std::string& flag, int n) {
  auto at = flag.find("{n}");
  return at == std::string::npos ? flag : flag.substr(0, at) + std::to_string(n) + flag.substr(at + 3);
}

int per_node(const LayoutAsk& a) {
  if (a.nodes > 0) return std::max(1, a.count / a.nodes);
  int n = a.accelerator ? a.accelerator->data.value("count_per_node", 0) : 0;
  if (n <= 0) n = 8;
  return std::max(1, std::min(n, a.count));
}

// The block rule of a block-quantized MoE format on this engine, or null.
const json* moe_block(const LayoutAsk& a) {
  if (!a.engine || !a.format || !a.model || !a.model->moe() || a.model->expert_ffn <= 0) return nullptr;
  auto rule = a.engine->data.find("tensor_parallel");
  if (rule == a.engine->data.end() || !rule->contains("moe_block")) return nullptr;
  for (const auto& b : (*rule)["moe_block"])
    for (const auto& f : array_field(b, "formats"))
      if (f.is_string() && f.get<std::string>() == a.format->id) return &b;
  return nullptr;
}

std::string flags_for(const json& rule, const Layout& l) {
  std::vector<std::string> out;
  if (l.tp > 1) out.push_back(with_size(flag_of(rule, "tensor"), l.tp));
  if (l.pp > 1) out.push_back(with_size(flag_of(rule, "pipeline"), l.pp));
  if (l.ep) out.push_back(with_size(flag_of(rule, "expert"), l.tp));
  // Replicas inside one launch only while a replica fits in a node: a data-parallel group places each replica after the
  // last on the same hosts (SGLang's DataParallelController: base_gpu_id += tp_size * pp_size), so replicas that span
  // nodes are separate launches behind a router (add_multi_host says so).
  if (l.dp > 1 && l.nodes <= 1 && l.gpus() * l.dp <= l.per_node && !flag_of(rule, "data").empty())
    out.push_back(with_size(flag_of(rule, "data"), l.dp));
  std::erase(out, std::string());
  return fmt::format("{}", fmt::join(out, " "));
}

// The shapes of one replica of `g` GPUs (at most a node of TP, the rest pipeline stages), best first.
std::vector<Layout> replica_shapes(const LayoutAsk& a, int g, int node) {
  const json rule = rule_of(a.engine);
  bool can_pp = !flag_of(rule, "pipeline").empty(), can_ep = !flag_of(rule, "expert").empty();
  int top = std::min(g, node), stages = g / top;
  std::vector<Layout> out;
  if (stages > 1 && !can_pp) return out;
  std::string refused;
  Layout whole;
  whole.tp = top, whole.pp = stages;
  if (tp_accepted(a, top, false, &refused)) {
    out.push_back(whole);
  } else if (can_ep && tp_accepted(a, top, true)) {
    whole.ep = true;
    whole.why.push_back(fmt::format("TP {} alone fails at load: {}; expert parallelism keeps each expert whole on one GPU", top, refused));
    out.push_back(whole);
  }
  std::string first_refusal = refused;
  // A smaller TP, the other GPUs idle (faster per user than more stages when it fits).
  for (int tp = top - 1; tp >= 1; --tp) {
    bool ep = false;
    if (!tp_accepted(a, tp, false)) {
      if (!(can_ep && tp > 1 && tp_accepted(a, tp, true))) continue;
      ep = true;
    }
    Layout l;
    l.tp = tp, l.pp = stages, l.ep = ep, l.idle = (top - tp) * stages;
    if (!first_refusal.empty()) l.why.push_back(fmt::format("TP {} fails at load: {}", top, first_refusal));
    out.push_back(l);
    break;
  }
  // A smaller TP that divides the node, the rest as pipeline stages: every GPU holds weights.
  if (can_pp)
    for (int tp = top - 1; tp >= 1; --tp) {
      if (top % tp != 0) continue;
      bool ep = false;
      if (!tp_accepted(a, tp, false)) {
        if (!(can_ep && tp > 1 && tp_accepted(a, tp, true))) continue;
        ep = true;
      }
      Layout l;
      l.tp = tp, l.pp = stages * (top / tp), l.ep = ep;
      if (!first_refusal.empty()) l.why.push_back(fmt::format("TP {} fails at load: {}", top, first_refusal));
      if (l.pp > 1 && (!a.model || l.pp <= a.model->layers)) out.push_back(l);
      break;
    }
  return out;
}

}  // namespace

bool tp_accepted(const LayoutAsk& a, int tp, bool ep, std::string* why) {
  if (tp <= 1) return true;
  const json rule = rule_of(a.engine);
  if (rule.is_null() || !a.model) return true;
  const ModelSpec& m = *a.model;
  const std::string engine = a.engine->id;
  if (rule.value("heads", "any") == "divide" && m.heads > 0 && m.heads % tp != 0) {
    if (why) *why = fmt::format("{} needs the TP size to divide the {} attention heads", engine, m.heads);
    return false;
  }
  if (rule.value("kv_heads", "any") == "divide-or-replicate" && m.kv_heads > 0 && m.attention != "mla" &&
      (m.kv_heads >= tp ? m.kv_heads % tp != 0 : tp % m.kv_heads != 0)) {
    if (why) *why = fmt::format("{} needs the TP size to divide the {} KV heads, or be a multiple of them", engine, m.kv_heads);
    return false;
  }
  if (const json* b = ep ? nullptr : moe_block(a)) {
    int block = b->value("block", 0);
    if (block > 0 && (m.expert_ffn % tp != 0 || (m.expert_ffn / tp) % block != 0)) {
      if (why)
        *why = fmt::format("{} refuses {} MoE weights when each GPU's share of an expert's FFN width ({} / {} = {:g}) is not a "
                           "whole number of {}-wide quantization blocks",
                           engine, a.format->id, m.expert_ffn, tp, static_cast<double>(m.expert_ffn) / tp, block);
      return false;
    }
  }
  return true;
}

double kv_replication(const Record* engine, const ModelSpec& m, int tp) {
  const json rule = rule_of(engine);
  if (rule.is_null() || rule.value("kv_heads", "any") == "any" || tp <= 1) return 1;
  // MLA caches one latent vector per token, a single KV head: under tensor parallelism every GPU keeps
  // the whole cache (SGLang's DP-attention guide: "DeepSeek models use MLA and only have one KV head.
  // If we use tensor parallelism on 8 GPUs, it will lead to: Duplicated KV cache across all GPUs").
  if (m.attention == "mla") return tp;
  if (m.kv_heads <= 0 || tp <= m.kv_heads) return 1;
  return static_cast<double>(tp) / m.kv_heads;
}

std::vector<Layout> layout_options(const LayoutAsk& a) {
  const json rule = rule_of(a.engine);
  int node = per_node(a), count = std::max(1, a.count);
  int nodes = (count + node - 1) / node;
  std::vector<Layout> out;
  if (rule.is_null()) {  // no tensor parallelism: layers split across the GPUs of one node, a replica per node
    Layout l;
    l.layer_split = true, l.layer_gpus = node, l.dp = count / node, l.idle = count - l.dp * node, l.per_node = node;
    if (l.dp > 1) l.why.push_back(fmt::format("{} does not split one model across nodes: one copy per node", a.engine ? a.engine->id : "it"));
    out.push_back(l);
    return out;
  }
  // Replicas of k nodes each, the fewest nodes first (a replica that fits a node needs no network).
  for (int k = 1; k <= nodes; ++k) {
    if (nodes % k != 0 && k != nodes) continue;
    if (k > 1 && !rule.value("multi_node", false)) break;
    int g = k == nodes ? count : k * node;
    if (k == nodes && count % node != 0 && nodes > 1) g = (count / node) * node;  // a partial node sits out
    for (Layout l : replica_shapes(a, g, node)) {
      l.per_node = node, l.nodes = k;
      l.dp = count / l.gpus();
      l.idle = count - l.dp * l.gpus();
      if (k > 1) l.why.push_back(fmt::format("{} nodes of {} GPUs per replica: tensor parallel within a node, pipeline stages across the network", k, node));
      if (l.dp > 1) l.why.push_back(fmt::format("{} replicas of {} GPUs each (data parallel): one copy of the weights per replica", l.dp, l.gpus()));
      l.flags = flags_for(rule, l);
      out.push_back(l);
    }
  }
  if (out.empty()) {  // nothing the engine accepts beyond one GPU
    Layout l;
    l.dp = count, l.per_node = node, l.flags = "";
    out.push_back(l);
  }
  return out;
}

}  // namespace qsel
