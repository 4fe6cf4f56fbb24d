#include "qsel/report/inspect_json.h"

#include <cmath>

#include "qsel/report/json_contract.h"

namespace qsel {
using ojson = nlohmann::ordered_json;
namespace {

ojson rounded(double v, int digits = 4) {
  double p = std::pow(10.0, digits);
  return std::round(v * p) / p;
}

ojson inspected_model_json(const ModelSpec& m) {
  return {{"description", m.description}, {"architecture", m.architecture.empty() ? ojson() : ojson(m.architecture)},
          {"params_b", rounded(m.params_b, 6)}, {"active_params_b", rounded(m.active_params_b, 6)}, {"layers", m.layers},
          {"hidden", m.hidden}, {"heads", m.heads}, {"kv_heads", m.kv_heads}, {"head_dim", m.head_dim}, {"vocab", m.vocab},
          {"attention", m.attention}, {"experts", m.experts}, {"active_experts", m.active_experts}, {"notes", m.notes}};
}

}  // namespace

ojson inspect_json(const Checkpoint& c, const CheckpointAnalysis& a, const ModelSpec* model, const std::string& model_error) {
  ojson j;
  j["schema_version"] = kOutputSchemaVersion;
  j["path"] = c.path;
  j["kind"] = c.kind;
  j["read"] = c.read;
  j["model"] = model ? inspected_model_json(*model) : ojson();
  if (!model_error.empty()) j["model_error"] = model_error;
  if (a.format) {
    ojson also = ojson::array();
    for (const Record* f : a.also) also.push_back(f->id);
    j["format"] = {{"id", a.format->id}, {"name", a.format->name}, {"regime", a.format->str("regime")}, {"matched_by", a.matched_by},
                   {"also", also}};
  } else {
    j["format"] = nullptr;
  }
  j["settings"] = a.settings;
  if (c.gguf) j["gguf"] = {{"version", c.gguf->version}, {"alignment", c.gguf->alignment}, {"data_offset", c.gguf->data_offset},
                           {"metadata_keys", c.gguf->metadata.size()}};
  j["tensors"] = c.tensors.size();
  j["params"] = a.params;
  j["bytes"] = a.bytes;
  j["bpw"] = a.params > 0 ? rounded(a.bpw()) : ojson();
  ojson q = {{"params", a.quantized_params}, {"bytes", a.quantized_bytes},
             {"bpw", a.quantized_params > 0 ? rounded(a.quantized_bpw()) : ojson()},
             {"group", a.group ? ojson(rounded(*a.group, 2)) : ojson()}};
  if (a.group_min) q["group_range"] = {rounded(*a.group_min, 2), rounded(*a.group_max, 2)};
  j["quantized"] = q;
  j["by_dtype"] = ojson::array();
  for (const auto& s : a.by_dtype)
    j["by_dtype"].push_back({{"dtype", s.dtype}, {"tensors", s.tensors}, {"params", s.params}, {"bytes", s.bytes},
                             {"bpw", c.gguf && s.params > 0 ? rounded(s.bytes * 8 / s.params) : ojson()}, {"group", s.group > 0 ? ojson(s.group) : ojson()}});
  j["kept"] = ojson::array();
  for (const auto& k : a.kept)
    j["kept"].push_back({{"category", k.category}, {"tensors", k.tensors}, {"params", k.params}, {"example", k.example}});
  ojson notes = c.notes;
  for (const auto& n : a.notes) notes.push_back(n);
  j["notes"] = notes;
  return j;
}

}  // namespace qsel
