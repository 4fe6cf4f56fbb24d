#include "qsel/model/checkpoint_format.h"
#include "qsel/core/json_number.h"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "qsel/core/ggml_types.h"
#include "qsel/core/text.h"

namespace qsel {
using nlohmann::json;
namespace {

std::vector<std::string> split_path(const std::string& key) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (;;) {
    std::size_t slash = key.find('/', start);
    out.push_back(key.substr(start, slash - start));
    if (slash == std::string::npos) return out;
    start = slash + 1;
  }
}

void collect(const json& j, const std::vector<std::string>& segs, std::size_t i, std::vector<const json*>& out) {
  if (i == segs.size()) {
    out.push_back(&j);
    return;
  }
  if (!j.is_object()) return;
  if (segs[i] == "*") {
    for (const auto& [k, v] : j.items()) collect(v, segs, i + 1, out);
    return;
  }
  if (auto it = j.find(segs[i]); it != j.end()) collect(*it, segs, i + 1, out);
}

bool same_value(const json& have, const json& want) {
  if (have.is_string() && want.is_string()) return to_lower(have.get<std::string>()) == to_lower(want.get<std::string>());
  if (have.is_number() && want.is_number()) return have.get<double>() == want.get<double>();
  if (have.is_array() && want.is_array()) {
    if (have.size() != want.size()) return false;
    for (std::size_t i = 0; i < have.size(); ++i)
      if (!same_value(have[i], want[i])) return false;
    return true;
  }
  return have == want;
}

// A record's signatures, by reference (pointers into them outlive the loop).
const json& signatures(const Record& f) {
  static const json none = json::array();
  auto it = f.data.find("checkpoint");
  return it != f.data.end() && it->is_array() ? *it : none;
}

std::string value_text(const json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

struct Match {
  const Record* format = nullptr;
  const json* signature = nullptr;
  int score = 0;
  std::vector<std::string> held;  // "quant_method=awq"
};

// The config a signature's `file` names, or null when the checkpoint has none.
const json* source_of(const std::string& file, const Checkpoint& c, const json& gguf_meta, const json& unquantized) {
  if (file == "quantization_config") return c.quantization_config.is_object() ? &c.quantization_config : nullptr;
  if (file == "hf_quant_config") return c.hf_quant_config.is_object() ? &c.hf_quant_config : nullptr;
  if (file == "gguf") return c.gguf ? &gguf_meta : nullptr;
  if (file == "unquantized") return unquantized.is_object() ? &unquantized : nullptr;
  return nullptr;
}

std::optional<Match> try_signature(const Record& f, const json& sig, const json& root) {
  Match m{&f, &sig, 0, {}};
  for (const auto& [key, allowed] : sig["match"].items()) {
    std::vector<const json*> values;
    collect(root, split_path(key), 0, values);
    const json* hit = nullptr;
    for (const json* v : values)
      for (const auto& a : allowed)
        if (!hit && same_value(*v, a)) hit = v;
    if (!hit) return std::nullopt;
    m.held.push_back(fmt::format("{}={}", key, value_text(*hit)));
    ++m.score;
  }
  for (const auto& key : array_field(sig, "absent")) {
    std::vector<const json*> values;
    collect(root, split_path(key.get<std::string>()), 0, values);
    for (const json* v : values)
      if (!v->is_null()) return std::nullopt;  // present with a value
    ++m.score;
  }
  return m;
}

// The dtype holding most bytes among weight matrices (2+ dimensions).
std::string dominant_dtype(const Checkpoint& c) {
  std::map<std::string, double> bytes;
  for (const auto& t : c.tensors)
    if (t.shape.size() >= 2) bytes[t.dtype] += static_cast<double>(t.bytes);
  auto best = std::max_element(bytes.begin(), bytes.end(), [](auto& a, auto& b) { return a.second < b.second; });
  return best == bytes.end() ? "" : best->first;
}

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

bool has(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }

std::string category(const std::string& name) {
  std::string n = to_lower(name);
  if (has(n, "lm_head") || n == "output.weight") return "lm_head";
  if (has(n, "embed_tokens") || has(n, "tok_embeddings") || has(n, "token_embd") || has(n, "word_embeddings") || has(n, ".wte.")) return "embeddings";
  if (has(n, "norm") || has(n, "ln_") || has(n, ".ln")) return "norms";
  if (has(n, "router") || has(n, "mlp.gate.") || has(n, "ffn_gate_inp") || has(n, "e_score_correction")) return "router";
  if (ends_with(n, "bias")) return "biases";
  if (has(n, "attn") || has(n, "attention")) return "attention";
  return "other";
}

const char* kSettings[] = {"bits", "group_size", "zero_point", "sym", "desc_act", "version", "checkpoint_format", "weight_block_size",
                           "activation_scheme", "fmt", "scale_fmt", "quant_algo", "kv_cache_quant_algo", "format", "bnb_4bit_quant_type",
                           "bnb_4bit_use_double_quant", "packing_format", "data_type"};

void settings_of(const json& q, std::vector<std::string>& out) {
  for (const char* k : kSettings)
    if (q.contains(k) && !q[k].is_null() && !q[k].is_object()) out.push_back(fmt::format("{} {}", k, value_text(q[k])));
  if (q.contains("quantization") && q["quantization"].is_object()) settings_of(q["quantization"], out);
  if (q.contains("config_groups") && q["config_groups"].is_object())
    for (const auto& [name, g] : q["config_groups"].items()) {
      if (!g.is_object() || !g.contains("weights") || !g["weights"].is_object()) continue;
      const json& w = g["weights"];
      std::vector<std::string> parts;
      for (const char* k : {"num_bits", "type", "strategy", "group_size", "symmetric"})
        if (w.contains(k) && !w[k].is_null()) parts.push_back(fmt::format("{} {}", k, value_text(w[k])));
      out.push_back(fmt::format("{} weights: {}", name, fmt::join(parts, ", ")));
      if (out.size() > 12) break;
    }
}

void identify(const Graph& g, const Checkpoint& c, CheckpointAnalysis& a, const json& gguf_meta, const json& unquantized) {
  std::vector<Match> matches;
  for (const Record* f : g.of_kind(Kind::Format))
    for (const auto& sig : signatures(*f)) {
      const json* root = source_of(sig.value("file", std::string()), c, gguf_meta, unquantized);
      if (!root) continue;
      if (auto m = try_signature(*f, sig, *root)) matches.push_back(*m);
    }
  if (matches.empty()) return;
  std::stable_sort(matches.begin(), matches.end(), [](const Match& x, const Match& y) { return x.score > y.score; });
  a.format = matches[0].format;
  std::string file = matches[0].signature->value("file", std::string());
  std::string where = file == "quantization_config" ? c.quantization_config_file + " quantization_config"
                      : file == "hf_quant_config"    ? "hf_quant_config.json"
                      : file == "gguf"               ? "GGUF metadata"
                      : unquantized.contains("from") ? unquantized["from"].get<std::string>()
                                                     : "the weights' dtype (no quantization config)";
  a.matched_by = fmt::format("{}: {}", where, fmt::join(matches[0].held, ", "));
  for (const auto& f : matches[0].signature->value("flags", json::array())) a.flags.push_back(f.get<std::string>());
  for (std::size_t i = 1; i < matches.size(); ++i)
    if (matches[i].score == matches[0].score && matches[i].format != a.format &&
        std::find(a.also.begin(), a.also.end(), matches[i].format) == a.also.end())
      a.also.push_back(matches[i].format);
}

struct Roles {
  const json* sig = nullptr;
  double payload_factor(const TensorInfo& t) const {
    if (!sig) return 0;
    for (const auto& p : sig->value("payload", json::array()))
      if (ends_with(t.name, p.value("suffix", std::string())) && (!p.contains("dtype") || p["dtype"] == t.dtype))
        return p.value("values_per_element", 1.0);
    return 0;
  }
  std::string listed(const TensorInfo& t, const char* field) const {
    if (!sig) return "";
    for (const auto& s : sig->value(field, json::array()))
      if (ends_with(t.name, s.get<std::string>())) return s.get<std::string>();
    return "";
  }
};

const json* signature_used(const CheckpointAnalysis& a, const Checkpoint& c) {
  if (!a.format || c.gguf) return nullptr;
  for (const auto& sig : signatures(*a.format))
    if (sig.contains("payload")) {
      std::string file = sig.value("file", std::string());
      if ((file == "quantization_config" && c.quantization_config.is_object()) || (file == "hf_quant_config" && c.hf_quant_config.is_object()))
        return &sig;
    }
  return nullptr;
}

void measure(const Checkpoint& c, CheckpointAnalysis& a) {
  Roles roles{signature_used(a, c)};
  std::map<std::string, DtypeShare> shares;
  std::map<std::string, KeptTensors> kept;
  std::map<std::string, double> payload_params;  // layer prefix -> weights
  std::map<std::string, double> scale_elements;  // layer prefix -> scale elements
  for (const auto& t : c.tensors) {
    const GgmlType* gt = c.gguf ? find_ggml_type(t.dtype) : nullptr;
    double bytes = static_cast<double>(t.bytes), params = 0;
    bool quantized = false;
    if (double f = roles.payload_factor(t); f > 0) {
      params = static_cast<double>(t.elements) * f;
      quantized = true;
      for (const auto& p : roles.sig->value("payload", json::array()))
        if (ends_with(t.name, p.value("suffix", std::string()))) {
          payload_params[t.name.substr(0, t.name.size() - p["suffix"].get<std::string>().size())] += params;
          break;
        }
    } else if (std::string s = roles.listed(t, "scales"); !s.empty()) {
      quantized = true;
      scale_elements[t.name.substr(0, t.name.size() - s.size())] += static_cast<double>(t.elements);
    } else if (!roles.listed(t, "auxiliary").empty()) {
      quantized = true;
    } else {
      params = static_cast<double>(t.elements);
      quantized = gt && gt->quantized;
    }
    a.params += params;
    a.bytes += bytes;
    if (quantized) {
      a.quantized_params += params;
      a.quantized_bytes += bytes;
    } else if (!c.gguf || (gt && !gt->quantized)) {
      auto& k = kept[category(t.name)];
      k.category = category(t.name);
      k.tensors++;
      k.params += params;
      if (k.example.empty()) k.example = t.name;
    }
    auto& s = shares[t.dtype];
    s.dtype = t.dtype;
    s.tensors++;
    s.params += params;
    s.bytes += bytes;
    if (gt) s.group = gt->scale_group;
  }
  for (auto& [_, s] : shares) a.by_dtype.push_back(s);
  std::sort(a.by_dtype.begin(), a.by_dtype.end(), [](const DtypeShare& x, const DtypeShare& y) { return x.bytes > y.bytes; });
  for (auto& [_, k] : kept) a.kept.push_back(k);
  std::sort(a.kept.begin(), a.kept.end(), [](const KeptTensors& x, const KeptTensors& y) { return x.params > y.params; });
  // Group size: weights per scale element, over the layers that have both.
  std::vector<std::pair<double, double>> groups;  // (group, weights)
  for (const auto& [prefix, w] : payload_params)
    if (auto it = scale_elements.find(prefix); it != scale_elements.end() && it->second > 0)
      groups.push_back({w / it->second, w});
  if (c.gguf) {
    for (const auto& s : a.by_dtype)
      if (s.group > 0) groups.push_back({static_cast<double>(s.group), s.params});
  }
  if (!groups.empty()) {
    std::sort(groups.begin(), groups.end());
    double total = 0, half = 0;
    for (const auto& gw : groups) total += gw.second;
    for (const auto& gw : groups) {
      half += gw.second;
      if (half >= total / 2) {
        a.group = gw.first;
        break;
      }
    }
    if (groups.front().first != groups.back().first) {
      a.group_min = groups.front().first;
      a.group_max = groups.back().first;
    }
  }
  if (roles.sig && a.quantized_params == 0 && !c.tensors.empty())
    a.notes.push_back(fmt::format("no tensor has the payload names {} records for {}: the tensors may follow another layout",
                                  roles.sig->value("payload", json::array()).dump(), a.format->id));
}

}  // namespace

CheckpointAnalysis analyze_checkpoint(const Graph& g, const Checkpoint& c) {
  CheckpointAnalysis a;
  static const json kNone;
  const json& gguf_meta = c.gguf ? c.gguf->metadata : kNone;
  json unquantized;
  if (!c.gguf && c.quantization_config.is_null() && c.hf_quant_config.is_null()) {
    if (!c.tensors.empty()) {
      unquantized = {{"dtype", dominant_dtype(c)}};
    } else if (c.config.is_object()) {
      // No tensors read (a config.json alone): the dtype the config declares. Newer
      // transformers write "dtype", older ones "torch_dtype".
      static const std::map<std::string, std::string> names = {{"bfloat16", "BF16"}, {"float16", "F16"}, {"float32", "F32"}};
      for (const char* key : {"dtype", "torch_dtype"}) {
        const auto it = c.config.find(key);
        if (it == c.config.end() || !it->is_string()) continue;
        auto n = names.find(it->get<std::string>());
        if (n != names.end())
          unquantized = {{"dtype", n->second},
                         {"from", fmt::format("config.json {} {} (no quantization config; no weights read)", key, n->first)}};
        break;
      }
    }
  }
  identify(g, c, a, gguf_meta, unquantized);
  if (c.quantization_config.is_object()) settings_of(c.quantization_config, a.settings);
  if (c.hf_quant_config.is_object()) settings_of(c.hf_quant_config, a.settings);
  if (c.gguf) {
    a.settings.push_back(fmt::format("general.file_type {}", c.gguf->integer("general.file_type", -1)));
    if (c.gguf->find("general.quantization_version"))
      a.settings.push_back(fmt::format("general.quantization_version {}", c.gguf->integer("general.quantization_version")));
  }
  if (!a.format) {
    if (c.quantization_config.is_object())
      a.notes.push_back(fmt::format("quantization config ({}) matches no format record's checkpoint signature: the parameter count is "
                                    "the stored elements and miscounts packed weights",
                                    c.quantization_config.value("quant_method", json("no quant_method")).dump()));
    else if (c.gguf)
      a.notes.push_back(fmt::format("general.file_type {} matches no format record", c.gguf->integer("general.file_type", -1)));
  }
  measure(c, a);
  return a;
}

}  // namespace qsel
