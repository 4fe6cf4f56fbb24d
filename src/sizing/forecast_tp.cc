// The tensor-parallel and serving per-layer terms (docs/performance-model.md, "Several GPUs" and "A floor per
// token"): fitted on batch-1 runs of several GPUs, and of serving engines on one, at the pooled efficiency.
#include <map>

#include <fmt/format.h>

#include "forecast_fit.h"
#include "qsel/sizing/forecast.h"

namespace qsel {
using namespace fit;

namespace {

// The groups a run's terms are looked up in, most specific first; "" (every run) is the last.
std::vector<std::string> tp_groups_of(const std::string& engine, const std::string& backend) {
  return {engine + "|" + backend, engine, ""};
}

// A group's samples: per configuration (one setup's runs at several prompt lengths are one piece of evidence),
// the values of its runs.
using Samples = std::map<std::string, std::map<std::string, std::vector<double>>>;  // group -> configuration -> values

// Per group with kMinRows configurations or more: the median over its configurations of each one's median,
// and how many runs it rests on.
std::map<std::string, std::pair<double, int>> group_medians(const Samples& samples) {
  std::map<std::string, std::pair<double, int>> out;
  for (const auto& [group, configurations] : samples) {
    if (static_cast<int>(configurations.size()) < kMinRows) continue;
    std::vector<double> per_configuration;
    int runs = 0;
    for (const auto& [configuration, v] : configurations) {
      per_configuration.push_back(median(v));
      runs += static_cast<int>(v.size());
    }
    out[group] = {median(per_configuration), runs};
  }
  return out;
}

// The first group of `groups` that has a figure, "" and (0, 0) when none has.
std::pair<std::string, std::pair<double, int>> first_of(const std::map<std::string, std::pair<double, int>>& fitted,
                                                        const std::vector<std::string>& groups) {
  for (const std::string& g : groups)
    if (auto it = fitted.find(g); it != fitted.end()) return {g, it->second};
  return {"", {0, 0}};
}

}  // namespace

void Calibration::fit_tensor_parallel(const std::vector<TpRow>& rows) {
  Efficiency all = for_engine("", "", false);
  double e = all.value > 0 ? all.value : 1;
  tp_base_.clear();
  tp_expert_.clear();
  tp_groups_.clear();
  // Dense runs give the per-layer figure; MoE runs, what each routed expert adds on top of their group's.
  Samples base, expert;
  // A run with no configuration (a test's) is its own.
  auto configuration = [](const TpRow& r) { return r.configuration.empty() ? fmt::format("{}", static_cast<const void*>(&r)) : r.configuration; };
  for (const TpRow& r : rows)
    if (!r.moe)
      for (const std::string& g : tp_groups_of(r.engine, r.backend)) base[g][configuration(r)].push_back(layer_term(r, e));
  tp_base_ = group_medians(base);
  for (const TpRow& r : rows)
    if (r.moe && r.experts > 0) {
      double over = std::max(0.0, layer_term(r, e) - first_of(tp_base_, tp_groups_of(r.engine, r.backend)).second.first);
      for (const std::string& g : tp_groups_of(r.engine, r.backend)) expert[g][configuration(r)].push_back(over / r.experts);
    }
  tp_expert_ = group_medians(expert);
  std::map<std::string, TpGroup> groups;
  auto runs = [](const std::map<std::string, std::vector<double>>& configurations) {
    int n = 0;
    for (const auto& [c, v] : configurations) n += static_cast<int>(v.size());
    return n;
  };
  for (const auto& [g, v] : base) {
    groups[g].dense_rows = runs(v);
    groups[g].dense_configurations = static_cast<int>(v.size());
  }
  for (const auto& [g, v] : expert) {
    groups[g].moe_rows = runs(v);
    groups[g].moe_configurations = static_cast<int>(v.size());
  }
  for (auto& [g, x] : groups) {
    x.group = g;
    if (auto it = tp_base_.find(g); it != tp_base_.end()) x.base_s = it->second.first;
    if (auto it = tp_expert_.find(g); it != tp_expert_.end()) x.expert_s = it->second.first;
    tp_groups_.push_back(x);
  }
}

std::string TpTerm::describe(const std::string& group, int runs) {
  if (group.empty()) return fmt::format("{} multi-GPU runs, every engine pooled", runs);
  auto bar = group.find('|');
  return bar == std::string::npos ? fmt::format("{} multi-GPU runs of {}, every backend", runs, group)
                                  : fmt::format("{} multi-GPU runs of {} on {}", runs, group.substr(0, bar), group.substr(bar + 1));
}

TpTerm Calibration::tensor_parallel(const std::string& engine, const std::string& backend) const {
  auto groups = tp_groups_of(engine, backend);
  auto [base_group, b] = first_of(tp_base_, groups);
  auto [expert_group, x] = first_of(tp_expert_, groups);
  return {b.first, x.first, b.second, x.second, base_group, expert_group};
}

namespace {
// Leave out one run at a time (or one configuration: `whole`), refit (`refit`) on the rest, and `visit`
// each run with the calibration that did not see it.
template <class Visit>
void leave_out(const Calibration& base, const std::vector<TpRow>& rows, void (Calibration::*refit)(const std::vector<TpRow>&), bool whole,
               Visit visit) {
  for (std::size_t i = 0; i < rows.size(); ++i) {
    std::vector<TpRow> others;
    for (std::size_t j = 0; j < rows.size(); ++j)
      if (j != i && !(whole && !rows[i].configuration.empty() && rows[j].configuration == rows[i].configuration)) others.push_back(rows[j]);
    Calibration c = base;
    (c.*refit)(others);
    visit(c, rows[i]);
  }
}
template <class Visit>
void leave_one_out(const Calibration& base, const std::vector<TpRow>& rows, void (Calibration::*refit)(const std::vector<TpRow>&),
                   Visit visit) {
  leave_out(base, rows, refit, false, visit);
}

// The pooled per-layer figure alone, as qsel forecast before the expert term: the median over every run.
double pooled_figure(const std::vector<TpRow>& rows, double e) {
  std::vector<double> v;
  for (const TpRow& r : rows) v.push_back(layer_term(r, e));
  return median(v);
}
}  // namespace

std::vector<TpHeldOut> tp_held_out_errors(const std::vector<SpeedRow>& speed, const std::vector<TpRow>& rows) {
  Calibration base(speed);
  double e = base.for_engine("", "", false).value;
  if (e <= 0) e = 1;
  struct Errors {
    std::vector<double> pooled, fitted, configuration, bandwidth;
  };
  std::map<std::string, Errors> errors;
  auto groups_of = [](const TpRow& r) {
    std::vector<std::string> keys = {std::string(), "engine " + r.engine};
    if (!r.link.empty()) keys.push_back(r.link);  // an unknown link counts in every run's row only
    keys.push_back(r.moe ? "MoE" : "dense");
    return keys;
  };
  auto term = [](const Calibration& c, const TpRow& r) { return c.tensor_parallel(r.engine, r.backend).layer_s(r.experts); };
  leave_one_out(base, rows, &Calibration::fit_tensor_parallel, [&](const Calibration& c, const TpRow& r) {
    std::vector<TpRow> others;
    for (const TpRow& o : rows)
      if (&o != &r) others.push_back(o);
    double pooled = tp_error(r, e, pooled_figure(others, e)), fitted = tp_error(r, e, term(c, r));
    double bandwidth = std::fabs(e * r.ceiling_tok_s - r.measured_tok_s) / r.measured_tok_s;
    for (const std::string& key : groups_of(r)) {
      Errors& x = errors[key];
      x.pooled.push_back(pooled);
      x.fitted.push_back(fitted);
      x.bandwidth.push_back(bandwidth);
    }
  });
  leave_out(base, rows, &Calibration::fit_tensor_parallel, true, [&](const Calibration& c, const TpRow& r) {
    for (const std::string& key : groups_of(r)) errors[key].configuration.push_back(tp_error(r, e, term(c, r)));
  });
  std::vector<TpHeldOut> out;
  auto row = [](const std::string& group, const Errors& x) {
    return TpHeldOut{group, static_cast<int>(x.pooled.size()), at_rank(x.pooled, 0.5), at_rank(x.pooled, 0.9), at_rank(x.fitted, 0.5),
                     at_rank(x.fitted, 0.9), at_rank(x.configuration, 0.5), at_rank(x.configuration, 0.9), at_rank(x.bandwidth, 0.5)};
  };
  for (const auto& [group, x] : errors)
    if (!group.empty()) out.push_back(row(group, x));
  if (auto all = errors.find(""); all != errors.end()) out.push_back(row("", all->second));
  return out;
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

}  // namespace qsel
