#include "qsel/rules/model_spec.h"

#include <cmath>
#include <fstream>
#include <regex>
#include <sstream>

#include <fmt/format.h>

#include "qsel/cli/context.h"
#include "qsel/core/text.h"

namespace qsel {
namespace {

using nlohmann::json;

int int_field(const json& d, const char* key, int fallback = 0) {
  auto it = d.find(key);
  return it != d.end() && it->is_number() ? it->get<int>() : fallback;
}

std::string size_label(double b) { return b >= 10 ? fmt::format("{:.0f}B", b) : fmt::format("{:g}B", b); }

struct SizeSpec {
  double total = 0, active = 0;
  int experts = 0;
};

SizeSpec parse_size(const std::string& text) {
  static const std::regex dense(R"(^(\d+(?:\.\d+)?)([bm])$)");
  static const std::regex moe(R"(^(\d+)x(\d+(?:\.\d+)?)b$)");
  static const std::regex active(R"(^(\d+(?:\.\d+)?)b-a(\d+(?:\.\d+)?)b$)");
  std::smatch m;
  SizeSpec s;
  if (std::regex_match(text, m, dense)) {
    s.total = std::stod(m[1]) / (m[2] == "m" ? 1000.0 : 1.0);
  } else if (std::regex_match(text, m, moe)) {
    s.experts = std::stoi(m[1]);
    s.total = s.experts * std::stod(m[2]);
  } else if (std::regex_match(text, m, active)) {
    s.total = std::stod(m[1]);
    s.active = std::stod(m[2]);
  }
  return s;
}

const Record* nearest_reference(const Graph& g, const SizeSpec& s) {
  const Record* best = nullptr;
  double best_d = 1e300;
  bool want_moe = s.experts > 0 || s.active > 0;
  for (const Record* m : g.of_kind(Kind::Model)) {
    if (!m->data.contains("reference_for")) continue;
    bool is_moe = m->data.contains("moe");
    double d = std::fabs(std::log(m->data["params_b"].get<double>() / s.total)) + (is_moe != want_moe ? 10 : 0);
    if (d < best_d) { best_d = d; best = m; }
  }
  return best;
}

std::string architecture_summary(const ModelSpec& m) {
  std::string kv = m.attention == "mla" ? fmt::format("MLA, KV rank {}", m.kv_lora_rank)
                                        : fmt::format("{} KV heads", m.kv_heads);
  std::string sw = m.sliding_window() ? fmt::format(", {}-token window on {} layers", m.window, m.sliding_layers) : "";
  return fmt::format("{} layers, {}{}", m.layers, kv, sw);
}

}  // namespace

const Release* ModelSpec::shipped() const {
  for (const auto& r : releases)
    if (r.primary) return &r;
  return nullptr;
}

double ModelSpec::embedding_params_b() const {
  return static_cast<double>(vocab) * hidden * (tied_embeddings ? 1 : 2) / 1e9;
}

double ModelSpec::attention_params_b() const {
  if (attention == "mla") return 0;
  double per_layer = 2.0 * hidden * heads * head_dim + 2.0 * hidden * kv_heads * head_dim;
  return per_layer * layers / 1e9;
}

ModelSpec model_from_record(const Record& r) {
  const json& d = r.data;
  ModelSpec m;
  m.id = r.id;
  m.origin = "record";
  m.params_b = d.value("params_b", 0.0);
  m.active_params_b = d.value("active_params_b", m.params_b);
  m.layers = int_field(d, "layers");
  m.kv_layers = int_field(d, "kv_cache_layers", m.layers);
  m.hidden = int_field(d, "hidden_size");
  m.heads = int_field(d, "heads");
  m.kv_heads = int_field(d, "kv_heads");
  m.head_dim = int_field(d, "head_dim");
  m.vocab = d.value("vocab_size", 0L);
  m.tied_embeddings = d.value("tie_embeddings", false);
  m.attention = d.value("attention", "gqa");
  if (d.contains("sliding_window")) {
    m.window = int_field(d["sliding_window"], "window");
    m.sliding_layers = int_field(d["sliding_window"], "sliding_layers", m.layers);
  }
  if (d.contains("mla")) {
    m.kv_lora_rank = int_field(d["mla"], "kv_lora_rank");
    m.rope_dim = int_field(d["mla"], "qk_rope_head_dim");
  }
  if (d.contains("moe")) {
    m.experts = int_field(d["moe"], "experts");
    m.active_experts = int_field(d["moe"], "active_experts");
  }
  m.architecture = d.value("architecture", std::string());
  for (const auto& rel : d.value("releases", json::array()))
    m.releases.push_back({rel["format"].get<std::string>(), rel["repo"].get<std::string>(), rel.value("primary", false),
                          rel.value("official", true)});
  std::string shape = m.moe() ? fmt::format("{} MoE ({} active)", size_label(m.params_b), size_label(m.active_params_b))
                              : fmt::format("{} dense", size_label(m.params_b));
  m.description = fmt::format("{}, {} ({})", shape, r.id, architecture_summary(m));
  return m;
}

ModelSpec model_from_size(const Graph& g, const std::string& raw) {
  std::string size = to_lower(raw);
  for (const Record* r : g.of_kind(Kind::Model))
    for (const auto& spelling : r->strings("/reference_for"))
      if (to_lower(spelling) == size) {
        ModelSpec m = model_from_record(*r);
        m.origin = "reference";
        m.description = fmt::format("{}, reference architecture {}", m.description.substr(0, m.description.find(", ")),
                                    m.description.substr(m.description.find(", ") + 2));
        return m;
      }
  SizeSpec s = parse_size(size);
  if (s.total <= 0)
    throw UsageError(fmt::format("cannot read model size \"{}\"; expected a size like 70b, 8B, 1.5b, 8x7b or 235b-a22b", raw));
  const Record* ref = nearest_reference(g, s);
  if (!ref) throw UsageError(fmt::format("no reference model in the corpus to size \"{}\" against; use --model-config", raw));
  ModelSpec m = model_from_record(*ref);
  m.origin = "reference";
  m.id.clear();
  m.releases.clear();  // another model's releases say nothing about this one
  double ratio = s.total / m.params_b;
  m.params_b = s.total;
  m.active_params_b = s.active > 0 ? s.active : (m.moe() ? m.active_params_b * ratio : s.total);
  m.description = fmt::format("{} (no reference architecture of this size; attention and KV cache from {})",
                              size_label(s.total), ref->id);
  m.notes.push_back(fmt::format("{}: no model record answers \"{}\"; KV cache and embeddings use the nearest reference, {} ({}); "
                                "pass --model or --model-config for exact figures", raw, raw, ref->id,
                                size_label(ref->data["params_b"].get<double>())));
  return m;
}

}  // namespace qsel
