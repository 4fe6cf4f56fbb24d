#include "qsel/model/model_checkpoint.h"

#include <fmt/format.h>

#include "qsel/core/errors.h"

namespace qsel {

ModelSpec model_from_checkpoint(const Checkpoint& c, const CheckpointAnalysis& a) {
  ModelSpec m;
  if (c.gguf) m = model_from_gguf(*c.gguf);
  else if (!c.config_file.empty()) m = model_from_config_text(c.config_text, c.config_file);
  else throw UsageError(fmt::format("{}: no config.json beside the weights, so the model's shape is unknown", c.path));
  CheckpointFacts facts;
  facts.path = c.path;
  facts.format = a.format ? a.format->id : "";
  facts.params = a.params;
  facts.bytes = a.bytes;
  facts.matched_by = a.matched_by;
  facts.read = c.read;
  facts.flags = a.flags;
  if (!c.gguf && a.params > 0) {
    // The tensors are the truth: the config-derived count ignores norms and biases.
    m.notes.push_back(fmt::format("{:.3f}B parameters counted from the tensors (the config gives {:.3f}B)", a.params / 1e9, m.params_b));
    double ratio = m.params_b > 0 ? a.params / 1e9 / m.params_b : 1;
    m.active_params_b *= ratio;
    m.params_b = a.params / 1e9;
    std::string size = m.params_b >= 1 ? fmt::format("{:.1f}B", m.params_b) : fmt::format("{:.0f}M", m.params_b * 1000);
    m.description = fmt::format("{} {} from {} ({} layers, {})", size, m.moe() ? "MoE" : "dense", c.path, m.layers,
                                m.attention == "mla" ? fmt::format("MLA, KV rank {}", m.kv_lora_rank) : fmt::format("{} KV heads", m.kv_heads));
  }
  if (a.format) {
    Release r;
    r.format = a.format->id;
    r.repo = c.path;
    r.primary = true;
    r.official = true;
    r.local = true;
    m.releases.push_back(r);
  } else if (!c.quantization_config.is_null() || !c.hf_quant_config.is_null()) {
    m.notes.push_back(fmt::format("{}: the quantization config matches no format record, so qsel cannot say what it ships in", c.path));
  }
  std::vector<std::string> names;
  for (const auto& f : c.read) names.push_back(f.size() > c.path.size() && f.rfind(c.path, 0) == 0 ? f.substr(c.path.size() + (c.path.back() == '/' ? 0 : 1)) : f);
  bool file = names.size() == 1 && c.read.size() == 1 && c.read[0] == c.path;
  std::string files = names.size() > 4 ? fmt::format("{} and {} more files", fmt::join(names.begin(), names.begin() + 3, ", "), names.size() - 3)
                                        : fmt::format("{}", fmt::join(names, ", "));
  if (a.format)
    m.notes.insert(m.notes.begin(), fmt::format("read {}: {} (matched by {}){}", file ? c.path : files + " in " + c.path, a.format->id, a.matched_by,
                                                a.params > 0 ? fmt::format("; {:.2f} GB of tensors for {:.3f}B parameters, {:.3f} bits per weight measured",
                                                                           a.bytes / 1e9, a.params / 1e9, a.bpw())
                                                             : ""));
  else
    m.notes.insert(m.notes.begin(), fmt::format("read {}: no format record matches its quantization", file ? c.path : files + " in " + c.path));
  m.checkpoint = facts;
  return m;
}

}  // namespace qsel
