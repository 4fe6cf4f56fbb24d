// The efficiency fit behind decode forecasts (docs/performance-model.md).
#include "qsel/sizing/forecast.h"

#include "forecast_fit.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include <fmt/format.h>

#include "qsel/core/json_number.h"

namespace qsel {
using nlohmann::json;
using namespace fit;

std::vector<GroupKey> efficiency_order(const std::string& engine, const std::string& backend, const std::string& memory, bool offload,
                                       bool backend_term, bool describe) {
  std::vector<GroupKey> order;
  // The basis is formatted only when asked for: the fits read this order for every row at every term they try.
  auto add = [&](std::string key, auto&&... basis) { order.push_back({std::move(key), describe ? (std::string(basis) + ...) : std::string()}); };
  std::string mode = offload ? "|offload" : "";
  if (offload) {  // offload runs are bound by system RAM: the part's memory does not split them
    add(engine + "|" + backend + mode, engine, " on ", backend, ", offload runs");
    add(engine + mode, engine, " (every backend), offload runs");
    add("*" + mode, "every engine, offload runs");
  }
  const char* full = offload ? ", full-GPU runs" : "";
  if (!memory.empty()) {
    const char* parts = memory == "hbm" ? "HBM parts" : "parts without HBM";
    add(engine + "|" + backend + "#" + memory, engine, " on ", backend, ", ", parts, full);
    if (!backend_term)  // fitted at the engine's term: not a pair for a backend's own
      add(engine + "#" + memory, engine, " (every backend), ", parts, full);
  }
  add(engine + "|" + backend, engine, " on ", backend, full);
  add(engine, engine, " (every backend)", full);
  add("*", "every engine", full);
  return order;
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
  for (const GroupKey& k : efficiency_order(r.engine, r.backend, r.memory, r.offload, false, false))
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
  if (it == moe_.end()) it = moe_.find("*");  // an engine with fewer than three MoE runs of its own: every engine's
  return it != moe_.end() ? &it->second : nullptr;
}

Calibration::SingleGpuStep Calibration::single_gpu_step(const Efficiency& e, const std::string& engine, const std::string& backend, bool serving,
                                                        bool offload, bool moe, double bandwidth_gbs) const {
  SingleGpuStep out;
  out.efficiency = e.value;
  const StepFloor& f = step_floor(engine, backend, serving);
  if (f.layer_s > 0 && (f.efficiency <= 0 || e.pooled)) {
    out.floor = &f;
    out.layer_s = f.layer_s;
    if (f.efficiency > 0) {
      out.efficiency = offload && f.offload_efficiency > 0 ? f.offload_efficiency : f.efficiency;
      out.floor_efficiency = true;
    }
  }
  if (moe && bandwidth_gbs > 0)
    if ((out.moe = moe_term(engine))) out.layer_s += out.moe->layer_s(bandwidth_gbs);
  return out;
}

double forecast_of(const Calibration& c, const SpeedRow& r) {
  auto step = c.single_gpu_step(c.for_engine(r.engine, r.backend, r.offload, r.memory), r.engine, r.backend, false, r.offload, r.moe,
                                r.bandwidth_gbs);
  return step.rate(r.ceiling_tok_s, 1, r.layers);
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
