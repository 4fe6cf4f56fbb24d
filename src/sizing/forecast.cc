// The efficiency fit behind decode forecasts (docs/performance-model.md).
#include "qsel/sizing/forecast.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include <fmt/format.h>

#include "qsel/sizing/placement.h"
#include "qsel/core/json_number.h"

namespace qsel {
using nlohmann::json;
namespace {

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
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
    r.engine = b->str("engine");
    r.backend = s.value("backend", "");
    if (r.backend.empty() && a)
      if (const Record* t = g.find(a->str("target"))) r.backend = backend_of(*t);
    r.measured_tok_s = number_or(s, "tok_s");
    r.layers = number_or(s, "layers") > 0 ? static_cast<int>(number_or(s, "layers")) : model ? static_cast<int>(number_or(model->data, "layers")) : 0;
    int gpu_layers = static_cast<int>(number_or(s, "gpu_layers")), total = static_cast<int>(number_or(s, "total_layers"));
    if (total > 0 && gpu_layers < total) {
      double ram_bw = number_or(s, "ram_bandwidth_gbs") > 0 ? number_or(s, "ram_bandwidth_gbs") : default_host().ram_bandwidth_gbs;
      double on_gpu = bytes * gpu_layers / total;
      r.offload = true;
      r.ceiling_tok_s = 1 / (on_gpu / bw + (bytes - on_gpu) / ram_bw);
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

std::vector<TpHeldOut> tp_held_out_errors(const std::vector<SpeedRow>& speed, const std::vector<TpRow>& rows) {
  Calibration base(speed);
  double e = base.for_engine("", "", false).value;
  if (e <= 0) e = 1;
  struct Errors {
    std::vector<double> pooled, fitted, bandwidth;
  };
  std::map<std::string, Errors> errors;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    std::vector<TpRow> others = rows;
    others.erase(others.begin() + static_cast<long>(i));
    Calibration c = base;
    c.fit_tensor_parallel(others);
    const TpRow& r = rows[i];
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
  }
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
  }
  return g;
}

// The efficiency an engine's row is forecast with from its own groups, in for_engine's order.
double engine_efficiency(const std::map<std::string, std::vector<double>>& g, const SpeedRow& r) {
  std::vector<std::string> order = {r.engine + "|" + r.backend, r.engine};
  if (r.offload) order.insert(order.begin(), {r.engine + "|" + r.backend + "|offload", r.engine + "|offload"});
  for (const auto& key : order)
    if (auto it = g.find(key); it != g.end() && static_cast<int>(it->second.size()) >= kMinRows) return median(it->second);
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

Calibration::Calibration(const std::vector<SpeedRow>& rows, bool step_floor) {
  std::map<std::string, std::vector<const SpeedRow*>> by_engine;
  for (const auto& r : rows) {
    std::string mode = r.offload ? "|offload" : "";
    groups_[r.engine + "|" + r.backend + mode].push_back(r.ratio());
    groups_[r.engine + mode].push_back(r.ratio());
    groups_[std::string("*") + mode].push_back(r.ratio());
    by_engine[r.engine].push_back(&r);
  }
  if (!step_floor) return;
  // Every engine together (what an engine with no rows of its own falls back to): the same joint fit
  // over all rows as one group, kept beside the plain "*" figures.
  std::vector<SpeedRow> pooled(rows);
  for (auto& r : pooled) r.engine = "*", r.backend = "";
  std::vector<const SpeedRow*> pooled_ptrs;
  for (const auto& r : pooled) pooled_ptrs.push_back(&r);
  by_engine["\x01pooled"] = pooled_ptrs;
  // Per engine: the per-layer term and the efficiencies fitted together — for each term searched, the
  // efficiencies are the medians of what the rows reached with the term taken out, and the term kept
  // is the one whose forecasts miss the engine's own rows least (median). Adopted only if that beats
  // no term; the pooled "*" figures stay plain (the tensor-parallel and serving terms are fitted on them).
  for (const auto& [engine, members] : by_engine) {
    int with_layers = 0, full = 0;
    for (const SpeedRow* r : members)
      if (r->layers > 0 && !r->offload) ++with_layers, ++full;
    if (with_layers < kMinRows || full < kMinRows) continue;
    double best = 0, best_error = engine_error(members, 0);
    for (int us = kFloorStepUs; us <= kFloorMaxUs; us += kFloorStepUs) {
      double e = engine_error(members, us * 1e-6);
      if (e < best_error - 1e-12) best = us * 1e-6, best_error = e;
    }
    if (best <= 0) continue;
    auto fitted = engine_groups(members, best);
    if (engine == "\x01pooled") {
      auto med = [&](const std::string& key) { auto it = fitted.find(key); return it != fitted.end() && static_cast<int>(it->second.size()) >= kMinRows ? median(it->second) : 0.0; };
      pooled_floor_ = {best, with_layers, "every engine's single-GPU runs", med("*"), med("*|offload")};
      continue;
    }
    for (auto& [key, values] : fitted) groups_[key] = values;
    floors_[engine] = {best, with_layers, engine + "'s own single-GPU runs"};
  }
}

double forecast_of(const Calibration& c, const SpeedRow& r) {
  Efficiency e = c.for_engine(r.engine, r.backend, r.offload);
  const StepFloor& f = c.step_floor(r.engine, false);
  double efficiency = e.value, layer_s = 0;
  if (f.layer_s > 0 && (f.efficiency <= 0 || e.pooled)) {
    layer_s = f.layer_s;
    if (f.efficiency > 0) efficiency = r.offload && f.offload_efficiency > 0 ? f.offload_efficiency : f.efficiency;
  }
  return efficiency > 0 ? predicted(r, efficiency, layer_s) : 0;
}

const StepFloor& Calibration::step_floor(const std::string& engine, bool serving) const {
  if (auto it = floors_.find(engine); it != floors_.end()) return it->second;
  return serving && serving_floor_.layer_s > 0 ? serving_floor_ : pooled_floor_;
}

// The efficiency the serving term is fitted at and forecast with: the every-engine figure with the
// pooled per-layer term taken out, else the plain every-engine figure.
static double serving_efficiency(const Calibration& c, double* offload) {
  const StepFloor& pooled = c.step_floor("", false);
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
                       ? StepFloor{median(per_layer), static_cast<int>(per_layer.size()), "serving engines' single-GPU runs", e, offload}
                       : StepFloor{};
}

std::vector<FloorHeldOut> serving_floor_held_out(const std::vector<SpeedRow>& speed, const std::vector<TpRow>& rows) {
  Calibration base(speed);
  double offload = 0, e = serving_efficiency(base, &offload);
  double plain = base.for_engine("", "", false).value;
  if (plain <= 0) plain = 1;
  std::map<std::pair<std::string, std::string>, std::pair<std::vector<double>, std::vector<double>>> errors;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    std::vector<TpRow> others = rows;
    others.erase(others.begin() + static_cast<long>(i));
    Calibration c = base;
    c.fit_serving_floor(others);
    const TpRow& r = rows[i];
    double with = tp_error(r, e, c.step_floor(r.engine, true).layer_s);
    double without = std::fabs(plain * r.ceiling_tok_s - r.measured_tok_s) / r.measured_tok_s;  // the forecast before the term
    for (const auto& key : {std::pair(r.engine, r.backend), std::pair(std::string(), std::string())}) {
      errors[key].first.push_back(without);
      errors[key].second.push_back(with);
    }
  }
  std::vector<FloorHeldOut> out;
  for (const auto& [key, x] : errors)
    if (!key.first.empty()) out.push_back({key.first, key.second, static_cast<int>(x.first.size()), median(x.first), median(x.second)});
  if (auto all = errors.find({}); all != errors.end())
    out.push_back({"", "", static_cast<int>(all->second.first.size()), median(all->second.first), median(all->second.second)});
  return out;
}

Efficiency Calibration::for_engine(const std::string& engine, const std::string& backend, bool offload) const {
  std::string mode = offload ? "|offload" : "";
  struct Try {
    std::string key, basis;
  };
  std::vector<Try> order = {{engine + "|" + backend + mode, fmt::format("{} on {}", engine, backend)},
                            {engine + mode, fmt::format("{} (every backend)", engine)},
                            {std::string("*") + mode, "every engine"}};
  if (offload)  // offload runs are few: fall back to the full-GPU figures before pooling engines
    order.insert(order.end(), {{engine + "|" + backend, fmt::format("{} on {}, full-GPU runs", engine, backend)},
                               {engine, fmt::format("{} (every backend), full-GPU runs", engine)},
                               {"*", "every engine, full-GPU runs"}});
  for (const auto& t : order) {
    auto it = groups_.find(t.key);
    if (it != groups_.end() && static_cast<int>(it->second.size()) >= kMinRows)
      return {median(it->second), static_cast<int>(it->second.size()), t.basis + (offload && t.key.find("|offload") != std::string::npos ? ", offload runs" : ""),
              t.key[0] == '*'};
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

std::vector<HeldOutGroup> held_out_errors(const std::vector<SpeedRow>& rows) {
  std::map<std::pair<std::string, std::string>, std::tuple<std::vector<double>, std::vector<double>, std::vector<double>>> errors;
  for (std::size_t i = 0; i < rows.size(); ++i) {  // leave one out: fit on every other row, predict this one
    const SpeedRow& r = rows[i];
    std::vector<SpeedRow> train;
    train.reserve(rows.size());
    for (std::size_t j = 0; j < rows.size(); ++j)
      if (j != i) train.push_back(rows[j]);
    double rate = forecast_of(Calibration(train), r);
    Efficiency plain = Calibration(train, /*step_floor=*/false).for_engine(r.engine, r.backend, r.offload);
    if (rate <= 0 || plain.value <= 0) continue;
    double forecast = std::fabs(rate - r.measured_tok_s) / r.measured_tok_s;
    double no_floor = std::fabs(r.ceiling_tok_s * plain.value - r.measured_tok_s) / r.measured_tok_s;
    double ceiling = std::fabs(r.ceiling_tok_s - r.measured_tok_s) / r.measured_tok_s;
    for (const auto& key : {std::pair(r.engine, r.backend + (r.offload ? ", offload" : "")), std::pair(std::string(), std::string())}) {
      auto& x = errors[key];
      std::get<0>(x).push_back(forecast);
      std::get<1>(x).push_back(ceiling);
      std::get<2>(x).push_back(no_floor);
    }
  }
  std::vector<HeldOutGroup> out;
  auto group = [](const std::pair<std::string, std::string>& key, const std::tuple<std::vector<double>, std::vector<double>, std::vector<double>>& x) {
    return HeldOutGroup{key.first, key.second, static_cast<int>(std::get<0>(x).size()), median(std::get<0>(x)), median(std::get<1>(x)),
                        median(std::get<2>(x))};
  };
  for (const auto& [key, x] : errors)
    if (!key.first.empty()) out.push_back(group(key, x));
  std::stable_sort(out.begin(), out.end(), [](const HeldOutGroup& a, const HeldOutGroup& b) { return a.rows > b.rows; });
  if (auto all = errors.find({}); all != errors.end()) out.push_back(group(all->first, all->second));
  return out;
}

}  // namespace qsel
