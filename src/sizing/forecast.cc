// The efficiency fit behind decode forecasts (docs/performance-model.md).
#include "qsel/sizing/forecast.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include <fmt/format.h>

#include "qsel/model/model_spec.h"
#include "qsel/sizing/placement.h"
#include "qsel/core/json_number.h"

namespace qsel {
using nlohmann::json;
namespace {

// The fits take a median some million times (the held-out tables refit inside each fit): selection,
// not a sort, finds the same middle values in linear time (3/4 of the tables' time was sorting).
double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::size_t n = v.size(), h = n / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(h), v.end());
  double upper = v[h];
  if (n % 2) return upper;
  return (*std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(h)) + upper) / 2;
}

constexpr int kMinRows = 3;

// The value at rank n x q of the sorted errors (q = 0.5: the upper median; 0.9: the 90th percentile),
// as tests/sizing/forecast_test.cc has always read the tensor-parallel held-out figures.
double at_rank(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<std::size_t>(static_cast<double>(v.size()) * q))];
}

// Seconds a run spends per layer beyond reading its weights at efficiency e.
double layer_term(const TpRow& r, double e) { return std::max(0.0, (1 / r.measured_tok_s - 1 / (e * r.ceiling_tok_s)) / r.layers); }

double tp_error(const TpRow& r, double e, double layer_s) {
  double predicted = 1 / (1 / (e * r.ceiling_tok_s) + r.layers * layer_s);
  return std::fabs(predicted - r.measured_tok_s) / r.measured_tok_s;
}

}  // namespace

std::string interconnect_of(const Record& accelerator) {
  auto it = accelerator.data.find("interconnect");
  return it != accelerator.data.end() && it->is_object() ? it->value("link", "") : "";
}

std::string backend_of(const Record& target) { return target.str("platform"); }

std::string memory_class_of(const Record& accelerator) {
  std::string t = accelerator.str("memory_type");
  std::transform(t.begin(), t.end(), t.begin(), [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  if (t.empty()) return "";
  return t.rfind("hbm", 0) == 0 ? "hbm" : "non-hbm";
}

std::vector<GroupKey> efficiency_order(const std::string& engine, const std::string& backend, const std::string& memory, bool offload,
                                       bool backend_term) {
  std::vector<GroupKey> order;
  std::string mode = offload ? "|offload" : "";
  if (offload)  // offload runs are bound by system RAM: the part's memory does not split them
    order.insert(order.end(), {{engine + "|" + backend + mode, fmt::format("{} on {}", engine, backend) + ", offload runs"},
                               {engine + mode, fmt::format("{} (every backend)", engine) + ", offload runs"},
                               {"*" + mode, "every engine, offload runs"}});
  std::string full = offload ? ", full-GPU runs" : "";
  if (!memory.empty()) {
    std::string parts = memory == "hbm" ? "HBM parts" : "parts without HBM";
    order.push_back({engine + "|" + backend + "#" + memory, fmt::format("{} on {}, {}{}", engine, backend, parts, full)});
    if (!backend_term)  // fitted at the engine's term: not a pair for a backend's own
      order.push_back({engine + "#" + memory, fmt::format("{} (every backend), {}{}", engine, parts, full)});
  }
  order.insert(order.end(), {{engine + "|" + backend, fmt::format("{} on {}{}", engine, backend, full)},
                             {engine, fmt::format("{} (every backend){}", engine, full)},
                             {"*", "every engine" + full}});
  return order;
}

std::vector<SpeedRow> speed_rows(const Graph& g, bool with_unverified) {
  std::vector<SpeedRow> out;
  for (const Record* b : g.of_kind(Kind::Benchmark)) {
    if (!b->data.contains("speed")) continue;
    bool unverified = b->str("grade") == "unverified";
    if (unverified && !with_unverified) continue;
    const json& s = b->data["speed"];
    if (s.value("phase", "") != "decode" || s.value("batch", 1) != 1) continue;
    const Record* a = g.find(b->str("accelerator"));
    double bw = a ? number_or(a->data, "memory_bandwidth_gbs") : 0;
    double weights = number_or(s, "weights_gb");
    const Record* model = g.find(b->str("model_id"));
    double params = number_or(s, "params_b") > 0 ? number_or(s, "params_b") : model ? number_or(model->data, "params_b") : 0;
    double active = number_or(s, "active_params_b") > 0 ? number_or(s, "active_params_b")
                    : model && number_or(model->data, "active_params_b") > 0 ? number_or(model->data, "active_params_b") : params;
    if (bw <= 0 || weights <= 0) continue;
    double share = params > 0 && active > 0 ? std::min(1.0, active / params) : 1;
    double bytes = weights * share;  // the KV read of a 128-token run is noise next to the weights
    SpeedRow r;
    r.record = b;
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
    } else if (int cpu_moe = static_cast<int>(number_or(s, "cpu_moe_layers")); cpu_moe > 0 && model) {
      // --n-cpu-moe N: the routed experts of the first N layers stay in RAM; a token reads its k of them there.
      ModelSpec m = model_from_record(*model);
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

// Bits per weight a format record states (bpw.nominal, else its weight bits).
double stated_bits(const Record* f) {
  if (!f) return 0;
  double nominal = f->data.contains("bpw") && f->data["bpw"].is_object() ? number_or(f->data["bpw"], "nominal") : 0;
  if (nominal > 0) return nominal;
  return number_or(f->data, "weight_bits");
}

namespace {

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
    if (r.measured_tok_s > 0) out.push_back(r);
  }
  return out;
}

}  // namespace

std::vector<TpRow> tp_rows(const Graph& g) { return decode_rows(g, false); }
std::vector<TpRow> serving_rows(const Graph& g) { return decode_rows(g, true); }

void Calibration::fit_tensor_parallel(const std::vector<TpRow>& rows) {
  Efficiency all = for_engine("", "", false);
  double e = all.value > 0 ? all.value : 1;
  tp_ = {};
  tp_by_link_.clear();
  tp_classes_.clear();
  std::vector<double> per_layer;
  std::map<std::string, std::vector<std::size_t>> by_link;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    per_layer.push_back(layer_term(rows[i], e));
    if (!rows[i].link.empty()) by_link[rows[i].link].push_back(i);
  }
  if (static_cast<int>(per_layer.size()) < kMinRows) return;
  tp_ = {median(per_layer), static_cast<int>(per_layer.size()), ""};
  // A class earns its own figure only if it predicts its own runs better than the pooled one,
  // each run held out in turn from both (a class left with fewer than three runs falls back).
  for (const auto& [link, members] : by_link) {
    TpClass c;
    c.link = link;
    c.rows = static_cast<int>(members.size());
    std::vector<double> own;
    for (std::size_t i : members) own.push_back(per_layer[i]);
    c.layer_s = median(own);
    if (c.rows >= kMinRows) {
      std::vector<double> class_errors, pooled_errors;
      for (std::size_t i : members) {
        std::vector<double> others, others_in_class;
        for (std::size_t j = 0; j < rows.size(); ++j)
          if (j != i) others.push_back(per_layer[j]);
        for (std::size_t j : members)
          if (j != i) others_in_class.push_back(per_layer[j]);
        double pooled = median(others);
        double own_figure = static_cast<int>(others_in_class.size()) >= kMinRows ? median(others_in_class) : pooled;
        class_errors.push_back(tp_error(rows[i], e, own_figure));
        pooled_errors.push_back(tp_error(rows[i], e, pooled));
      }
      c.held_out_class = at_rank(class_errors, 0.5);
      c.held_out_pooled = at_rank(pooled_errors, 0.5);
      c.adopted = c.held_out_class < c.held_out_pooled;
      if (c.adopted) tp_by_link_[link] = {c.layer_s, c.rows, link};
    }
    tp_classes_.push_back(c);
  }
}

const TpSync& Calibration::tensor_parallel(const std::string& link) const {
  auto it = link.empty() ? tp_by_link_.end() : tp_by_link_.find(link);
  return it != tp_by_link_.end() ? it->second : tp_;
}

namespace {
// Leave one run out at a time: a copy of `base` refitted (`refit`) on every other run, then `visit`ed with the run it
// did not see.
template <class Visit>
void leave_one_out(const Calibration& base, const std::vector<TpRow>& rows, void (Calibration::*refit)(const std::vector<TpRow>&),
                   Visit visit) {
  for (std::size_t i = 0; i < rows.size(); ++i) {
    std::vector<TpRow> others = rows;
    others.erase(others.begin() + static_cast<long>(i));
    Calibration c = base;
    (c.*refit)(others);
    visit(c, rows[i]);
  }
}
}  // namespace

std::vector<TpHeldOut> tp_held_out_errors(const std::vector<SpeedRow>& speed, const std::vector<TpRow>& rows) {
  Calibration base(speed);
  double e = base.for_engine("", "", false).value;
  if (e <= 0) e = 1;
  struct Errors {
    std::vector<double> pooled, fitted, bandwidth;
  };
  std::map<std::string, Errors> errors;
  leave_one_out(base, rows, &Calibration::fit_tensor_parallel, [&](const Calibration& c, const TpRow& r) {
    double pooled = tp_error(r, e, c.tensor_parallel().layer_s), fitted = tp_error(r, e, c.tensor_parallel(r.link).layer_s);
    double bandwidth = std::fabs(e * r.ceiling_tok_s - r.measured_tok_s) / r.measured_tok_s;
    std::vector<std::string> keys = {std::string()};
    if (!r.link.empty()) keys.push_back(r.link);  // an unknown link counts in every run's row only
    for (const std::string& key : keys) {
      Errors& x = errors[key];
      x.pooled.push_back(pooled);
      x.fitted.push_back(fitted);
      x.bandwidth.push_back(bandwidth);
    }
  });
  std::vector<TpHeldOut> out;
  auto row = [](const std::string& link, const Errors& x) {
    return TpHeldOut{link, static_cast<int>(x.pooled.size()), at_rank(x.pooled, 0.5), at_rank(x.pooled, 0.9),
                     at_rank(x.fitted, 0.5), at_rank(x.fitted, 0.9), at_rank(x.bandwidth, 0.5)};
  };
  for (const auto& [link, x] : errors)
    if (!link.empty()) out.push_back(row(link, x));
  if (auto all = errors.find(""); all != errors.end()) out.push_back(row("", all->second));
  return out;
}

namespace {

// A row's measured / ceiling once `layer_s` per layer is taken out of its measured step: the share of
// the bandwidth ceiling its weight reads reached. The term may explain at most 90% of a step.
double ratio_without(const SpeedRow& r, double layer_s) {
  double step = 1 / r.measured_tok_s, rest = std::max(0.1 * step, step - r.layers * layer_s);
  return (1 / r.ceiling_tok_s) / rest;
}

double predicted(const SpeedRow& r, double efficiency, double layer_s) {
  return 1 / (1 / (efficiency * r.ceiling_tok_s) + r.layers * layer_s);
}

// One engine's efficiency groups (ENGINE|BACKEND[|offload], ENGINE[|offload]) at a per-layer term.
std::map<std::string, std::vector<double>> engine_groups(const std::vector<const SpeedRow*>& rows, double layer_s) {
  std::map<std::string, std::vector<double>> g;
  for (const SpeedRow* r : rows) {
    std::string mode = r->offload ? "|offload" : "";
    double x = ratio_without(*r, layer_s);
    g[r->engine + "|" + r->backend + mode].push_back(x);
    g[r->engine + mode].push_back(x);
    if (!r->offload && !r->memory.empty()) {
      g[r->engine + "|" + r->backend + "#" + r->memory].push_back(x);
      g[r->engine + "#" + r->memory].push_back(x);
    }
  }
  return g;
}

// The efficiency an engine's row is forecast with from its own groups, in for_engine's order.
double engine_efficiency(const std::map<std::string, std::vector<double>>& g, const SpeedRow& r) {
  for (const GroupKey& k : efficiency_order(r.engine, r.backend, r.memory, r.offload, false))
    if (auto it = g.find(k.key); it != g.end() && static_cast<int>(it->second.size()) >= kMinRows) return median(it->second);
  return 0;
}

// The median error of an engine's rows forecast from its own groups at `layer_s` (in-sample).
double engine_error(const std::vector<const SpeedRow*>& rows, double layer_s) {
  auto g = engine_groups(rows, layer_s);
  std::vector<double> errors;
  for (const SpeedRow* r : rows) {
    double e = engine_efficiency(g, *r);
    if (e > 0) errors.push_back(std::fabs(predicted(*r, e, layer_s) - r->measured_tok_s) / r->measured_tok_s);
  }
  return median(errors);
}

constexpr int kFloorStepUs = 2, kFloorMaxUs = 400;  // the per-layer terms searched: 0-400 us in 2 us steps

}  // namespace

// The per-layer term (0-400 us in 2 us steps, 0 first) whose forecasts miss `rows` least (median),
// the efficiencies taken from the same rows with that term out; ties keep the smaller term.
// A term is admissible only while the efficiencies it leaves are physical: no group of runs may read
// its weights faster than the memory's bandwidth (an efficiency above 1). Traded against a large term,
// the efficiency can climb past 1 and still fit the runs' median, and then forecasts a 32B on a
// 256 GB/s part at twice its bandwidth ceiling.
static bool physical(const std::map<std::string, std::vector<double>>& groups) {
  for (const auto& [key, values] : groups)
    if (static_cast<int>(values.size()) >= kMinRows && median(values) > 1.0) return false;
  return true;
}

static double best_floor(const std::vector<const SpeedRow*>& rows) {
  double best = 0, best_error = engine_error(rows, 0);
  for (int us = kFloorStepUs; us <= kFloorMaxUs; us += kFloorStepUs) {
    if (!physical(engine_groups(rows, us * 1e-6))) break;  // the efficiencies only grow with the term
    double e = engine_error(rows, us * 1e-6);
    if (e < best_error - 1e-12) best = us * 1e-6, best_error = e;
  }
  return best;
}

namespace {

constexpr std::size_t kNone = static_cast<std::size_t>(-1);

// One engine's runs on one backend, with run `skip` left out: the efficiencies at `layer_s` (full-GPU
// runs, and per memory class where a class has three; offload runs, 0 with fewer than three), read as
// engine_efficiency reads its groups, without the string-keyed groups: the adoption check below runs
// this some ten thousand times per fit.
struct BackendEfficiencies {
  double full = 0, offload = 0;
  std::map<std::string, double> by_memory;
  double for_row(const SpeedRow& r) const {
    if (r.offload && offload > 0) return offload;
    if (auto it = by_memory.find(r.memory); !r.offload && it != by_memory.end()) return it->second;
    return full;
  }
  bool physical() const {
    return full <= 1.0 && offload <= 1.0 && std::all_of(by_memory.begin(), by_memory.end(), [](const auto& m) { return m.second <= 1.0; });
  }
};

BackendEfficiencies backend_efficiencies(const std::vector<const SpeedRow*>& rows, double layer_s, std::size_t skip) {
  std::vector<double> full, offload;
  std::map<std::string, std::vector<double>> memory;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (i == skip) continue;
    double x = ratio_without(*rows[i], layer_s);
    (rows[i]->offload ? offload : full).push_back(x);
    if (!rows[i]->offload && !rows[i]->memory.empty()) memory[rows[i]->memory].push_back(x);
  }
  auto med = [](const std::vector<double>& v) { return static_cast<int>(v.size()) >= kMinRows ? median(v) : 0.0; };
  BackendEfficiencies e{med(full), med(offload), {}};
  for (const auto& [m, v] : memory)
    if (static_cast<int>(v.size()) >= kMinRows) e.by_memory[m] = median(v);
  return e;
}

double backend_row_error(const SpeedRow& r, const BackendEfficiencies& e, double layer_s) {
  double efficiency = e.for_row(r);
  return efficiency > 0 ? std::fabs(predicted(r, efficiency, layer_s) - r.measured_tok_s) / r.measured_tok_s : -1;
}

// The term (searched as best_floor does) whose forecasts miss the backend's runs, bar `skip`, least.
double best_backend_floor(const std::vector<const SpeedRow*>& rows, std::size_t skip) {
  double best = 0, best_error = 0;
  for (int us = 0; us <= kFloorMaxUs; us += kFloorStepUs) {
    double layer_s = us * 1e-6;
    auto e = backend_efficiencies(rows, layer_s, skip);
    if (us > 0 && !e.physical()) break;  // past the bandwidth: not physical (best_floor)
    std::vector<double> errors;
    for (std::size_t i = 0; i < rows.size(); ++i)
      if (i != skip)
        if (double x = backend_row_error(*rows[i], e, layer_s); x >= 0) errors.push_back(x);
    double m = median(errors);
    if (us == 0 || m < best_error - 1e-12) best = layer_s, best_error = m;
  }
  return best;
}

}  // namespace

Calibration::Calibration(const std::vector<SpeedRow>& all, FloorFit fit, const std::set<std::string>* adopt) {
  // With a per-layer term, an MoE's runs give the cost of its routing and expert dispatch per layer (fit_moe),
  // and the efficiencies and terms below are fitted on dense runs: a run that pays that cost would read as a
  // lower efficiency for every model of its group. The plain every-engine figures keep every run.
  std::vector<SpeedRow> rows;
  std::vector<const SpeedRow*> moe;
  for (const auto& r : all) {
    std::string mode = r.offload ? "|offload" : "";
    groups_[std::string("*") + mode].push_back(r.ratio());
    if (fit != FloorFit::none && r.moe)
      moe.push_back(&r);
    else
      rows.push_back(r);
  }
  std::map<std::string, std::vector<const SpeedRow*>> by_engine;
  for (const auto& r : rows) {
    std::string mode = r.offload ? "|offload" : "";
    groups_[r.engine + "|" + r.backend + mode].push_back(r.ratio());
    groups_[r.engine + mode].push_back(r.ratio());
    if (!r.offload && !r.memory.empty()) {
      groups_[r.engine + "|" + r.backend + "#" + r.memory].push_back(r.ratio());
      groups_[r.engine + "#" + r.memory].push_back(r.ratio());
    }
    by_engine[r.engine].push_back(&r);
  }
  if (fit == FloorFit::none) return;
  // Every engine together (what an engine with no rows of its own falls back to): the same joint fit
  // over all rows as one group, kept beside the plain "*" figures.
  std::vector<SpeedRow> pooled(rows);
  for (auto& r : pooled) r.engine = "*", r.backend = "", r.memory = "";  // the memory classes are an engine's own kernels' (llama.cpp's reach less of HBM)
  std::vector<const SpeedRow*> pooled_ptrs;
  for (const auto& r : pooled) pooled_ptrs.push_back(&r);
  by_engine["\x01pooled"] = pooled_ptrs;
  auto full_with_layers = [](const std::vector<const SpeedRow*>& members) {
    return static_cast<int>(std::count_if(members.begin(), members.end(), [](const SpeedRow* r) { return r->layers > 0 && !r->offload; }));
  };
  // Per engine: the per-layer term and the efficiencies fitted together — for each term searched, the
  // efficiencies are the medians of what the rows reached with the term taken out, and the term kept
  // is the one whose forecasts miss the engine's own rows least (median). Adopted only if that beats
  // no term; the pooled "*" figures stay plain (the tensor-parallel and serving terms are fitted on them).
  // Per backend (FloorFit::per_backend): the same fit on the backend's own runs where it has
  // kMinFloorRows, whose term (0 included) and efficiencies replace the engine's for that backend: the
  // fixed work per layer is not the same where the engine replays CUDA graphs as on Metal or Vulkan.
  for (const auto& [engine, members] : by_engine) {
    int with_layers = full_with_layers(members);
    if (with_layers < kMinRows) continue;
    double best = best_floor(members);
    if (engine == "\x01pooled") {
      if (best <= 0) continue;
      auto fitted = engine_groups(members, best);
      auto med = [&](const std::string& key) { auto it = fitted.find(key); return it != fitted.end() && static_cast<int>(it->second.size()) >= kMinRows ? median(it->second) : 0.0; };
      pooled_floor_ = {best, with_layers, "every engine's single-GPU runs", "", true, med("*"), med("*|offload")};
      continue;
    }
    std::map<std::string, std::vector<const SpeedRow*>> by_backend;
    if (fit == FloorFit::per_backend)
      for (const SpeedRow* r : members) by_backend[r->backend].push_back(r);
    std::map<std::string, double> own;  // backends with a term of their own
    for (const auto& [backend, in_backend] : by_backend) {
      FloorBackend b{engine, backend, full_with_layers(in_backend)};
      if (b.rows < kMinFloorRows) continue;
      b.layer_s = best_backend_floor(in_backend, kNone);
      // Adopted only if it predicts the backend's own runs better than the engine's term over every
      // backend: each full-GPU run held out in turn, the backend's term and efficiency fitted on its other
      // runs, against the engine's term (fitted once, on every run) with the efficiency of the same others.
      std::vector<double> own_errors, pooled_errors;
      for (std::size_t i = 0; i < in_backend.size() && !adopt; ++i) {
        const SpeedRow& r = *in_backend[i];
        if (r.offload || r.layers <= 0) continue;
        double t = best_backend_floor(in_backend, i);
        own_errors.push_back(backend_row_error(r, backend_efficiencies(in_backend, t, i), t));
        pooled_errors.push_back(backend_row_error(r, backend_efficiencies(in_backend, best, i), best));
      }
      b.held_out_own = at_rank(own_errors, 0.5);
      b.held_out_pooled = at_rank(pooled_errors, 0.5);
      b.adopted = adopt ? adopt->count(engine + "|" + backend) > 0 : b.held_out_own < b.held_out_pooled;
      floor_backends_.push_back(b);
      if (!b.adopted) continue;
      own[backend] = b.layer_s;
      floors_[engine + "|" + backend] = {b.layer_s, b.rows, fmt::format("{}'s single-GPU runs on {}", engine, backend), backend, false};
    }
    if (best > 0) {
      for (auto& [key, values] : engine_groups(members, best)) groups_[key] = values;
      floors_[engine] = {best, with_layers, engine + "'s single-GPU runs, every backend pooled", "", true};
    }
    for (const auto& [backend, layer_s] : own)
      for (auto& [key, values] : engine_groups(by_backend[backend], layer_s))
        if (key.rfind(engine + "|" + backend, 0) == 0) groups_[key] = values;  // ENGINE|BACKEND, its offload and memory-class groups
  }
  fit_moe(moe);
}

// Each engine's MoE runs on one GPU: what a step took beyond the forecast the dense fit gives it, per layer,
// in bytes at the part's bandwidth; and every engine's MoE runs together against the forecast an engine
// with no runs of its own gets.
void Calibration::fit_moe(const std::vector<const SpeedRow*>& rows) {
  std::map<std::string, std::vector<double>> per_layer;
  auto beyond = [](const SpeedRow& r, double dense) { return std::max(0.0, (1 / r.measured_tok_s - 1 / dense) / r.layers) * r.bandwidth_gbs; };
  double pooled_e = pooled_floor_.efficiency > 0 ? pooled_floor_.efficiency : for_engine("", "", false).value;
  for (const SpeedRow* r : rows) {
    if (r->offload || r->layers <= 0 || r->bandwidth_gbs <= 0) continue;
    if (double dense = forecast_of(*this, *r); dense > 0) per_layer[r->engine].push_back(beyond(*r, dense));
    if (pooled_e > 0) per_layer["*"].push_back(beyond(*r, predicted(*r, pooled_e, pooled_floor_.layer_s)));
  }
  for (const auto& [engine, values] : per_layer)
    if (static_cast<int>(values.size()) >= kMinRows)
      moe_[engine] = {median(values), static_cast<int>(values.size()),
                      engine == "*" ? "every engine's single-GPU MoE runs" : engine + "'s single-GPU MoE runs", engine == "*"};
}

const Calibration::MoeTerm* Calibration::moe_term(const std::string& engine) const {
  auto it = moe_.find(engine);
  if (it == moe_.end() && !groups_.count(engine)) it = moe_.find("*");  // an engine with no runs of its own: every engine's
  return it != moe_.end() ? &it->second : nullptr;
}

double forecast_of(const Calibration& c, const SpeedRow& r) {
  Efficiency e = c.for_engine(r.engine, r.backend, r.offload, r.memory);
  const StepFloor& f = c.step_floor(r.engine, r.backend, false);
  double efficiency = e.value, layer_s = 0;
  if (f.layer_s > 0 && (f.efficiency <= 0 || e.pooled)) {
    layer_s = f.layer_s;
    if (f.efficiency > 0) efficiency = r.offload && f.offload_efficiency > 0 ? f.offload_efficiency : f.efficiency;
  }
  if (efficiency <= 0) return 0;
  double rate = predicted(r, efficiency, layer_s);
  if (const Calibration::MoeTerm* moe = r.moe ? c.moe_term(r.engine) : nullptr) rate = 1 / (1 / rate + r.layers * moe->layer_s(r.bandwidth_gbs));
  return rate;
}

const FloorBackend* Calibration::floor_backend(const std::string& engine, const std::string& backend) const {
  for (const FloorBackend& b : floor_backends_)
    if (b.engine == engine && b.backend == backend) return &b;
  return nullptr;
}

const StepFloor& Calibration::step_floor(const std::string& engine, const std::string& backend, bool serving) const {
  if (auto it = floors_.find(engine + "|" + backend); it != floors_.end()) return it->second;
  if (auto it = floors_.find(engine); it != floors_.end()) return it->second;
  return serving && serving_floor_.layer_s > 0 ? serving_floor_ : pooled_floor_;
}

// The efficiency the serving term is fitted at and forecast with: the every-engine figure with the
// pooled per-layer term taken out, else the plain every-engine figure.
static double serving_efficiency(const Calibration& c, double* offload) {
  const StepFloor& pooled = c.step_floor("", "", false);
  if (pooled.efficiency > 0) {
    *offload = pooled.offload_efficiency;
    return pooled.efficiency;
  }
  *offload = 0;
  double e = c.for_engine("", "", false).value;
  return e > 0 ? e : 1;
}

void Calibration::fit_serving_floor(const std::vector<TpRow>& rows) {
  double offload = 0, e = serving_efficiency(*this, &offload);
  std::vector<double> per_layer;
  for (const TpRow& r : rows) per_layer.push_back(layer_term(r, e));
  serving_floor_ = static_cast<int>(per_layer.size()) >= kMinRows
                       ? StepFloor{median(per_layer), static_cast<int>(per_layer.size()), "serving engines' single-GPU runs", "", true, e, offload}
                       : StepFloor{};
}

std::vector<FloorHeldOut> serving_floor_held_out(const std::vector<SpeedRow>& speed, const std::vector<TpRow>& rows) {
  Calibration base(speed);
  double offload = 0, e = serving_efficiency(base, &offload);
  double plain = base.for_engine("", "", false).value;
  if (plain <= 0) plain = 1;
  std::map<std::pair<std::string, std::string>, std::pair<std::vector<double>, std::vector<double>>> errors;
  leave_one_out(base, rows, &Calibration::fit_serving_floor, [&](const Calibration& c, const TpRow& r) {
    double with = tp_error(r, e, c.step_floor(r.engine, r.backend, true).layer_s);
    double without = std::fabs(plain * r.ceiling_tok_s - r.measured_tok_s) / r.measured_tok_s;  // the forecast before the term
    for (const auto& key : {std::pair(r.engine, r.backend), std::pair(std::string(), std::string())}) {
      errors[key].first.push_back(without);
      errors[key].second.push_back(with);
    }
  });
  std::vector<FloorHeldOut> out;
  for (const auto& [key, x] : errors)
    if (!key.first.empty()) out.push_back({key.first, key.second, static_cast<int>(x.first.size()), median(x.first), median(x.second)});
  if (auto all = errors.find({}); all != errors.end())
    out.push_back({"", "", static_cast<int>(all->second.first.size()), median(all->second.first), median(all->second.second)});
  return out;
}

Efficiency Calibration::for_engine(const std::string& engine, const std::string& backend, bool offload, const std::string& memory) const {
  for (const GroupKey& k : efficiency_order(engine, backend, memory, offload, floors_.count(engine + "|" + backend) > 0)) {
    auto it = groups_.find(k.key);
    if (it != groups_.end() && static_cast<int>(it->second.size()) >= kMinRows)
      return {median(it->second), static_cast<int>(it->second.size()), k.basis, k.key[0] == '*'};
  }
  return {};
}

std::vector<GroupFit> calibration_groups(const std::vector<SpeedRow>& rows) {
  std::map<std::pair<std::string, std::string>, std::vector<double>> groups;
  for (const auto& r : rows)
    if (!r.offload) groups[{r.engine, r.backend}].push_back(r.ratio());
  std::vector<GroupFit> out;
  for (auto& [key, v] : groups) {
    std::sort(v.begin(), v.end());
    out.push_back({key.first, key.second, static_cast<int>(v.size()), median(v), v.front(), v.back()});
  }
  std::stable_sort(out.begin(), out.end(), [](const GroupFit& a, const GroupFit& b) { return a.rows > b.rows; });
  return out;
}

std::set<std::string> Calibration::adopted_floors() const {
  std::set<std::string> out;
  for (const FloorBackend& b : floor_backends_)
    if (b.adopted) out.insert(b.engine + "|" + b.backend);
  return out;
}

std::vector<HeldOutRow> held_out_rows(const std::vector<SpeedRow>& rows, bool refit_adoption) {
  std::set<std::string> fixed;
  if (!refit_adoption) fixed = Calibration(rows).adopted_floors();
  std::vector<HeldOutRow> out;
  for (std::size_t i = 0; i < rows.size(); ++i) {  // leave one out: fit on every other row (terms and efficiencies), predict this one
    const SpeedRow& r = rows[i];
    std::vector<SpeedRow> train;
    train.reserve(rows.size());
    for (std::size_t j = 0; j < rows.size(); ++j)
      if (j != i) train.push_back(rows[j]);
    HeldOutRow h{&r};
    h.forecast = forecast_of(Calibration(train, FloorFit::per_backend, refit_adoption ? nullptr : &fixed), r);
    h.engine_floor = forecast_of(Calibration(train, FloorFit::per_engine), r);
    h.no_floor = r.ceiling_tok_s * Calibration(train, FloorFit::none).for_engine(r.engine, r.backend, r.offload, r.memory).value;
    if (h.forecast > 0 && h.engine_floor > 0 && h.no_floor > 0) out.push_back(h);
  }
  return out;
}

std::vector<HeldOutGroup> held_out_errors(const std::vector<SpeedRow>& rows, bool refit_adoption) {
  struct Errors {
    std::vector<double> forecast, ceiling, no_floor, engine_floor;
  };
  std::map<std::pair<std::string, std::string>, Errors> errors;
  for (const HeldOutRow& h : held_out_rows(rows, refit_adoption)) {
    const SpeedRow& r = *h.row;
    for (const auto& key : {std::pair(r.engine, r.backend + (r.offload ? ", offload" : "")), std::pair(std::string(), std::string())}) {
      Errors& x = errors[key];
      x.forecast.push_back(h.error(h.forecast));
      x.ceiling.push_back(h.error(r.ceiling_tok_s));
      x.no_floor.push_back(h.error(h.no_floor));
      x.engine_floor.push_back(h.error(h.engine_floor));
    }
  }
  std::vector<HeldOutGroup> out;
  auto group = [](const std::pair<std::string, std::string>& key, const Errors& x) {
    return HeldOutGroup{key.first,          key.second,           static_cast<int>(x.forecast.size()), median(x.forecast), at_rank(x.forecast, 0.9),
                        median(x.ceiling),  median(x.no_floor),   at_rank(x.no_floor, 0.9),           median(x.engine_floor),
                        at_rank(x.engine_floor, 0.9)};
  };
  for (const auto& [key, x] : errors)
    if (!key.first.empty()) out.push_back(group(key, x));
  std::stable_sort(out.begin(), out.end(), [](const HeldOutGroup& a, const HeldOutGroup& b) { return a.rows > b.rows; });
  if (auto all = errors.find({}); all != errors.end()) out.push_back(group(all->first, all->second));
  return out;
}

}  // namespace qsel
