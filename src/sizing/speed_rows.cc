// The rows the forecast is fitted on (docs/performance-model.md): single-GPU decode runs with a published
// file size, and batch-1 runs of several GPUs or of serving engines, whose ceiling comes from the format's bits.
#include <algorithm>
#include <cctype>
#include <optional>

#include <fmt/format.h>

#include "qsel/core/json_number.h"
#include "qsel/model/model_spec.h"
#include "qsel/sizing/forecast.h"
#include "qsel/sizing/memory.h"
#include "qsel/sizing/placement.h"

namespace qsel {
using nlohmann::json;

std::string interconnect_of(const Record& accelerator) {
  auto it = accelerator.data.find("interconnect");
  return it != accelerator.data.end() && it->is_object() ? it->value("link", "") : "";
}

std::string backend_of(const Record& target) { return target.str("platform"); }

// The run's file size: the one it publishes, else the size qsel's sizing gives its model in its format (the
// estimate a user's forecast rests on), with what that estimate is. 0 when neither is known.
static double run_weights_gb(const Graph& g, const Record& run, const json& speed, const ModelSpec* model, std::string* basis) {
  double stated = number_or(speed, "weights_gb");
  if (stated > 0) return stated;
  const Record* format = g.find(run.str("format_id"));
  if (!model || !format || model->params_b <= 0) return 0;
  Bpw b = choose_bpw(*format, *model, &g);
  if (b.value <= 0) return 0;
  *basis = "estimated: " + b.source;
  return weights_gb(*format, *model, b);
}

std::string memory_class_of(const Record& accelerator) {
  std::string t = accelerator.str("memory_type");
  std::transform(t.begin(), t.end(), t.begin(), [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  if (t.empty()) return "";
  return t.rfind("hbm", 0) == 0 ? "hbm" : "non-hbm";
}


std::vector<SpeedRow> speed_rows(const Graph& g, bool with_unverified) {
  std::vector<SpeedRow> out;
  for (const Record* b : g.of_kind(Kind::Benchmark)) {
    if (!b->data.contains("speed")) continue;
    bool unverified = b->str("grade") == "unverified";
    if (unverified && !with_unverified) continue;
    const json& s = b->data["speed"];
    if (s.value("phase", "") != "decode" || s.value("batch", 1) != 1) continue;
    // One GPU only: runs of several (tensor parallel, a layer split, pipeline stages) are tp_rows' or no one's.
    if (number_or(s, "gpus") > 1 || (s.contains("parallel") && s["parallel"].is_object() && number_or(s["parallel"], "tensor") > 1)) continue;
    // An engine qsel has a record of, and not a serving engine: their one-GPU runs are serving_rows', whose
    // per-layer term is fitted apart (docs/performance-model.md, "A floor per token").
    const Record* engine = g.find(b->str("engine"));
    if (!engine || engine->kind != Kind::Engine || engine->str("role") == "serving") continue;
    const Record* a = g.find(b->str("accelerator"));
    double bw = a ? number_or(a->data, "memory_bandwidth_gbs") : 0;
    const Record* model = g.find(b->str("model_id"));
    std::optional<ModelSpec> spec;  // the model's shape, read once for the size estimate and the expert split
    if (model) spec = model_from_record(*model);
    std::string weights_basis;
    double weights = run_weights_gb(g, *b, s, spec ? &*spec : nullptr, &weights_basis);
    double params = number_or(s, "params_b") > 0 ? number_or(s, "params_b") : model ? number_or(model->data, "params_b") : 0;
    double active = number_or(s, "active_params_b") > 0 ? number_or(s, "active_params_b")
                    : model && number_or(model->data, "active_params_b") > 0 ? number_or(model->data, "active_params_b") : params;
    if (bw <= 0 || weights <= 0) continue;
    double share = params > 0 && active > 0 ? std::min(1.0, active / params) : 1;
    double bytes = weights * share;  // the KV read of a 128-token run is noise next to the weights
    SpeedRow r;
    r.record = b;
    r.weights_basis = weights_basis;
    r.unverified = unverified;
    r.moe = share < 1;
    r.bandwidth_gbs = bw;
    r.engine = b->str("engine");
    r.backend = s.value("backend", "");
    if (r.backend.empty() && a)
      if (const Record* t = g.find(a->str("target"))) r.backend = backend_of(*t);
    if (a) r.memory = memory_class_of(*a);
    r.measured_tok_s = number_or(s, "tok_s");
    r.layers = number_or(s, "layers") > 0 ? static_cast<int>(number_or(s, "layers")) : model ? static_cast<int>(number_or(model->data, "layers")) : 0;
    int gpu_layers = static_cast<int>(number_or(s, "gpu_layers")), total = static_cast<int>(number_or(s, "total_layers"));
    double ram_bw = number_or(s, "ram_bandwidth_gbs") > 0 ? number_or(s, "ram_bandwidth_gbs") : default_host().ram_bandwidth_gbs;
    double in_ram = 0;  // GB a token reads from system RAM
    if (total > 0 && gpu_layers < total) {
      in_ram = bytes * (total - gpu_layers) / total;
    } else if (int cpu_moe = static_cast<int>(number_or(s, "cpu_moe_layers")); cpu_moe > 0 && spec) {
      // --n-cpu-moe N: the routed experts of the first N layers stay in RAM; a token reads its k of them there.
      const ModelSpec& m = *spec;
      if (!m.moe() || m.layers <= 0 || m.params_b <= 0 || m.active_experts <= 0) continue;  // no expert shape to split the bytes by
      double gb_per_param = weights / m.params_b;
      in_ram = std::min(bytes, std::min(cpu_moe, m.layers) / static_cast<double>(m.layers) * m.active_experts * m.params_per_expert_b() * gb_per_param);
    }
    if (in_ram > 0) {
      r.offload = true;
      r.ceiling_tok_s = 1 / ((bytes - in_ram) / bw + in_ram / ram_bw);
    } else {
      r.ceiling_tok_s = bw / bytes;
    }
    if (r.measured_tok_s > 0 && r.ceiling_tok_s > 0) out.push_back(r);
  }
  return out;
}

namespace {

// Bits per weight a format record states (bpw.nominal, else its weight bits).
double stated_bits(const Record* f) {
  if (!f) return 0;
  double nominal = f->data.contains("bpw") && f->data["bpw"].is_object() ? number_or(f->data["bpw"], "nominal") : 0;
  if (nominal > 0) return nominal;
  return number_or(f->data, "weight_bits");
}

// Batch-1 decode runs with the ceiling from the format's bits: tensor-parallel ones (single false), or
// one-GPU runs of serving engines (single true).
std::vector<TpRow> decode_rows(const Graph& g, bool single) {
  std::vector<TpRow> out;
  for (const Record* b : g.of_kind(Kind::Benchmark)) {
    if (!b->data.contains("speed") || b->str("grade") == "unverified") continue;
    const json& s = b->data["speed"];
    if (s.value("phase", "") != "decode" || s.value("batch", 1) != 1) continue;
    if (s.value("eager", false)) continue;  // not what the engine's default command runs (speed.eager)
    int tp = s.contains("parallel") && s["parallel"].is_object() ? static_cast<int>(number_or(s["parallel"], "tensor")) : 0;
    if (single) {
      const Record* engine = g.find(b->str("engine"));
      if (tp > 1 || number_or(s, "gpus") > 1 || !engine || engine->str("role") != "serving") continue;
      if (number_or(s, "total_layers") > 0 && number_or(s, "gpu_layers") < number_or(s, "total_layers")) continue;  // offloaded
      tp = 1;
    } else if (tp < 2) {
      continue;
    }
    const Record* a = g.find(b->str("accelerator"));
    const Record* model = g.find(b->str("model_id"));
    double bw = a ? number_or(a->data, "memory_bandwidth_gbs") : 0;
    double bits = stated_bits(g.find(b->str("format_id")));
    if (!model || bw <= 0 || bits <= 0) continue;
    double active = number_or(model->data, "active_params_b") > 0 ? number_or(model->data, "active_params_b")
                                                                   : number_or(model->data, "params_b");
    int layers = static_cast<int>(number_or(model->data, "layers"));
    if (active <= 0 || layers <= 0) continue;
    TpRow r;
    r.record = b;
    r.engine = b->str("engine");
    r.backend = s.value("backend", "");
    if (r.backend.empty() && a)
      if (const Record* t = g.find(a->str("target"))) r.backend = backend_of(*t);
    r.measured_tok_s = number_or(s, "tok_s");
    r.ceiling_tok_s = tp * bw / (active * bits / 8);
    r.layers = layers;
    r.tp = tp;
    r.link = s.value("interconnect", "");
    if (r.link.empty() && a) r.link = interconnect_of(*a);
    r.moe = number_or(model->data, "active_params_b") > 0 && number_or(model->data, "active_params_b") < number_or(model->data, "params_b");
    if (r.moe) r.experts = std::max(0, model_from_record(*model).active_experts);
    r.configuration = fmt::format("{} {} x{} {} {} {}", r.engine, b->str("accelerator"), std::max<double>(tp, number_or(s, "gpus")),
                                  b->str("model_id"), b->str("format_id"), s.contains("parallel") ? s["parallel"].dump() : "");
    if (r.measured_tok_s > 0) out.push_back(r);
  }
  return out;
}

}  // namespace

std::vector<TpRow> tp_rows(const Graph& g) { return decode_rows(g, false); }
std::vector<TpRow> serving_rows(const Graph& g) { return decode_rows(g, true); }

}  // namespace qsel
