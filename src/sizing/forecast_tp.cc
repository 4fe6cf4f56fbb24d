// The tensor-parallel and serving per-layer terms (docs/performance-model.md, "Several GPUs" and "A floor per
// token"): fitted on batch-1 runs of several GPUs, and of serving engines on one, at the pooled efficiency.
#include <map>

#include <fmt/format.h>

#include "forecast_fit.h"
#include "qsel/sizing/forecast.h"

namespace qsel {
using namespace fit;

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
