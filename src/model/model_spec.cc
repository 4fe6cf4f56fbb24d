#include "qsel/model/model_spec.h"
#include "qsel/core/json_number.h"

#include <cmath>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "qsel/core/errors.h"
#include "qsel/core/ggml_types.h"
#include "qsel/core/text.h"

namespace qsel {
using nlohmann::json;
namespace {

int int_field(const json& d, const char* key, int fallback = 0) {
  auto it = d.find(key);
  return it != d.end() && it->is_number() ? it->get<int>() : fallback;
}

// "405B", "70.6B", "32.8B", "8.03B": three significant figures below 100B (a 70.55B model is
// not "71B"), whole billions above.
std::string size_label(double b) { return b >= 100 ? fmt::format("{:.0f}B", b) : fmt::format("{:.3g}B", b * (1 + 1e-12)); }  // 70.55 reads 70.6

struct SizeSpec {
  double total = 0, active = 0, expert = 0;
  int experts = 0;
};

// A decimal number at the front of `t` ("1.5b"): its value and length; 0 length when none.
std::pair<double, std::size_t> number(std::string_view t) {
  std::size_t i = 0, digits = 0;
  bool dot = false;
  while (i < t.size() && i < 16 && (std::isdigit(static_cast<unsigned char>(t[i])) || (t[i] == '.' && !dot))) {
    if (t[i] == '.') dot = true;
    else ++digits;
    ++i;
  }
  if (digits == 0 || (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i])))) return {0, 0};
  return {std::stod(std::string(t.substr(0, i))), i};
}

// "70b", "1.5b", "500m", "1t" → billions; 0 when the text is not exactly that.
double billions(std::string_view t) {
  auto [v, n] = number(t);
  if (n == 0 || n + 1 != t.size()) return 0;
  char unit = t[n];
  return unit == 'b' ? v : unit == 'm' ? v / 1000 : unit == 't' ? v * 1000 : 0;
}

// "70b", "8B", "1.5b", "1t", "8x7b", "235b-a22b", written by hand: no regex on user input.
SizeSpec parse_size(const std::string& text) {
  SizeSpec s;
  if (text.empty() || text.size() > 32) return s;
  if (auto x = text.find('x'); x != std::string::npos) {
    auto [n, len] = number(std::string_view(text).substr(0, x));
    double each = billions(std::string_view(text).substr(x + 1));
    if (len == x && n >= 1 && n <= 4096 && n == std::floor(n) && each > 0) {
      s.experts = static_cast<int>(n);
      s.expert = each;
      s.total = n * each;
    }
    return s;
  }
  if (auto a = text.find("-a"); a != std::string::npos) {
    s.total = billions(std::string_view(text).substr(0, a));
    s.active = billions(std::string_view(text).substr(a + 2));
    if (s.total <= 0 || s.active <= 0 || s.active > s.total) s = {};
    return s;
  }
  s.total = billions(text);
  return s;
}

const Record* nearest_reference(const Graph& g, const SizeSpec& s) {
  const Record* best = nullptr;
  double best_d = 1e300;
  bool want_moe = s.experts > 0 || s.active > 0;
  for (const Record* m : g.of_kind(Kind::Model)) {
    if (!m->data.contains("reference_for")) continue;
    bool is_moe = m->data.contains("moe");
    int experts = is_moe ? m->data["moe"].value("experts", 0) : 0;
    double d = std::fabs(std::log(m->data["params_b"].get<double>() / s.total)) + (is_moe != want_moe ? 10 : 0) +
               (s.experts > 0 && experts != s.experts ? 5 : 0);
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
  if (auto it = d.find("trust_remote_code"); it != d.end() && it->is_object()) m.remote_code = it->value("reason", "");
  for (const auto& e : array_field(d, "engine_flags"))
    if (e.is_object() && e.contains("flags") && e["flags"].is_string())
      for (const auto& id : array_field(e, "engines"))
        if (id.is_string()) m.engine_flags.emplace_back(id.get<std::string>(), e["flags"].get<std::string>());
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
  m.kept_16bit_params_b = number_or(object_field(d, "kept_16bit"), "params_b");
  m.attention = d.value("attention", "gqa");
  if (d.contains("sliding_window")) {
    m.window = int_field(d["sliding_window"], "window");
    m.sliding_layers = int_field(d["sliding_window"], "sliding_layers", m.layers);
  }
  if (d.contains("mla")) {
    m.kv_lora_rank = int_field(d["mla"], "kv_lora_rank");
    m.rope_dim = int_field(d["mla"], "qk_rope_head_dim");
  }
  if (d.contains("linear_attention")) {
    const json& la = d["linear_attention"];
    m.linear.layers = int_field(la, "layers");
    m.linear.key_heads = int_field(la, "key_heads");
    m.linear.value_heads = int_field(la, "value_heads");
    m.linear.key_dim = int_field(la, "key_head_dim");
    m.linear.value_dim = int_field(la, "value_head_dim");
    m.linear.conv_kernel = int_field(la, "conv_kernel");
  }
  if (d.contains("moe")) {
    m.experts = int_field(d["moe"], "experts");
    m.active_experts = int_field(d["moe"], "active_experts");
    m.expert_ffn = int_field(d["moe"], "expert_intermediate_size");
  }
  if (d.contains("gguf_experts"))
    if (const GgmlType* t = find_ggml_type(d["gguf_experts"].value("type", ""))) {
      m.gguf_expert_bpw = t->bpw();
      m.gguf_expert_type = std::string(t->name);
    }
  m.architecture = d.value("architecture", std::string());
  m.family = d.value("family", std::string());
  m.max_context = d.value("max_context", 0L);
  if (d.contains("context_extension")) {
    m.extended_context = d["context_extension"].value("max_context", 0L);
    m.extension_method = d["context_extension"].value("method", std::string());
    double factor = number_or(d["context_extension"], "factor");
    m.extension_original = static_cast<long>(number_or(d["context_extension"], "original_context"));
    if (m.extension_original <= 0 && factor > 1 && m.extended_context > 0)
      m.extension_original = std::lround(static_cast<double>(m.extended_context) / factor);
    m.rope_theta = number_or(d["context_extension"], "rope_theta");
  }
  for (const auto& rel : array_field(d, "releases")) {
    Release x{rel["format"].get<std::string>(), rel["repo"].get<std::string>(), rel.value("primary", false), rel.value("official", true)};
    x.qat = rel.value("qat", false);
    x.repack = rel.value("repack", false);
    x.file = rel.value("file", "");
    x.file_gb = rel.value("file_gb", 0.0);
    x.quant_method = rel.value("quant_method", "");
    x.registry = rel.value("registry", "");
    if (rel.contains("not_on") && rel["not_on"].is_object()) {
      for (const auto& e : array_field(rel["not_on"], "engines"))
        if (e.is_string()) x.not_engines.push_back(e.get<std::string>());
      x.not_reason = rel["not_on"].value("reason", "");
    }
    m.releases.push_back(x);
  }
  std::string shape = m.moe() ? fmt::format("{} MoE ({} active)", size_label(m.params_b), size_label(m.active_params_b))
                              : fmt::format("{} dense", size_label(m.params_b));
  m.description = fmt::format("{}, {} ({})", shape, r.id, architecture_summary(m));
  return m;
}

std::string context_note(const ModelSpec& m, long tokens) {
  if (m.max_context <= 0 || tokens <= m.max_context) return "";
  std::string who = m.id.empty() ? "the model" : m.id;
  if (m.extended_context >= tokens)
    return fmt::format("--context {} is beyond {}'s native {} tokens: it needs {} RoPE scaling (up to {}), which the publisher "
                       "supports; enable it in the engine (rope_scaling), and only when prompts are that long", tokens, who,
                       m.max_context, m.extension_method, m.extended_context);
  long most = std::max(m.max_context, m.extended_context);
  throw UsageError(fmt::format("--context {} is beyond {}'s maximum of {} tokens{}; pass --context {} or less", tokens, who, most,
                               m.extended_context > 0 ? fmt::format(" ({} with {} RoPE scaling)", m.extended_context, m.extension_method)
                                                      : " (max_position_embeddings)",
                               most));
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
  if (s.total <= 0 || s.total > 100000)
    throw UsageError(fmt::format("cannot read model size {}; expected a size like 70b, 8B, 1.5b, 1t, 8x7b or 235b-a22b", quote_value(raw)));
  const Record* ref = nearest_reference(g, s);
  if (!ref) throw UsageError(fmt::format("no reference model in the corpus to size {} against; use --model-config", quote_value(raw)));
  ModelSpec m = model_from_record(*ref);
  m.origin = "reference";
  m.id.clear();
  m.releases.clear();  // another model's releases say nothing about this one
  double ref_total = m.params_b, ref_active = m.active_params_b;
  m.expert_ffn = 0;  // the reference's expert width says nothing of this size's
  std::string how;
  if (s.experts > 0 && m.moe() && m.experts == s.experts && ref->data.value("size_class", std::string()).find('x') != std::string::npos) {
    // N experts of an M-class FFN share one attention stack: scale the reference's total and active counts.
    double ref_each = billions(ref->str("size_class").substr(ref->str("size_class").find('x') + 1));
    m.params_b = s.total * ref_total / (s.experts * ref_each);
    m.active_params_b = ref_active * s.expert / ref_each;
    how = fmt::format("{} experts share attention, so not {:g}B: scaled from {} ({}B total, {}B active for {})", s.experts, s.total,
                      ref->id, ref_total, ref_active, ref->str("size_class"));
  } else {
    double ratio = s.total / m.params_b;
    m.params_b = s.total;
    m.active_params_b = s.active > 0 ? s.active : (m.moe() ? m.active_params_b * ratio : s.total);
  }
  m.description = fmt::format("{}{} (no reference architecture of this size; attention and KV cache from {})",
                              size_label(m.params_b), m.moe() ? fmt::format(" MoE ({} active)", size_label(m.active_params_b)) : "",
                              ref->id);
  m.notes.push_back(fmt::format("{}: no model record answers \"{}\"; KV cache and embeddings use the nearest reference, {} ({}){}; "
                                "pass --model or --model-config for exact figures", raw, raw, ref->id,
                                size_label(ref_total), how.empty() ? "" : "; " + how));
  return m;
}

}  // namespace qsel
