// The efficiency fit behind decode forecasts (docs/performance-model.md).
#include "qsel/sizing/forecast.h"

#include <algorithm>
#include <cmath>
#include <map>

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

std::vector<TpRow> tp_rows(const Graph& g) {
  std::vector<TpRow> out;
  for (const Record* b : g.of_kind(Kind::Benchmark)) {
    if (!b->data.contains("speed") || b->str("grade") == "unverified") continue;
    const json& s = b->data["speed"];
    if (s.value("phase", "") != "decode" || s.value("batch", 1) != 1) continue;
    int tp = s.contains("parallel") && s["parallel"].is_object() ? static_cast<int>(number_or(s["parallel"], "tensor")) : 0;
    if (tp < 2) continue;
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

Calibration::Calibration(const std::vector<SpeedRow>& rows) {
  for (const auto& r : rows) {
    std::string mode = r.offload ? "|offload" : "";
    groups_[r.engine + "|" + r.backend + mode].push_back(r.ratio());
    groups_[r.engine + mode].push_back(r.ratio());
    groups_[std::string("*") + mode].push_back(r.ratio());
  }
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
      return {median(it->second), static_cast<int>(it->second.size()), t.basis + (offload && t.key.find("|offload") != std::string::npos ? ", offload runs" : "")};
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
  std::map<std::pair<std::string, std::string>, std::pair<std::vector<double>, std::vector<double>>> errors;
  for (std::size_t i = 0; i < rows.size(); ++i) {  // leave one out: fit on every other row, predict this one
    const SpeedRow& r = rows[i];
    std::vector<SpeedRow> train;
    train.reserve(rows.size());
    for (std::size_t j = 0; j < rows.size(); ++j)
      if (j != i) train.push_back(rows[j]);
    Efficiency e = Calibration(train).for_engine(r.engine, r.backend, r.offload);
    if (e.value <= 0) continue;
    double forecast = std::fabs(r.ceiling_tok_s * e.value - r.measured_tok_s) / r.measured_tok_s;
    double ceiling = std::fabs(r.ceiling_tok_s - r.measured_tok_s) / r.measured_tok_s;
    for (const auto& key : {std::pair(r.engine, r.backend + (r.offload ? ", offload" : "")), std::pair(std::string(), std::string())}) {
      errors[key].first.push_back(forecast);
      errors[key].second.push_back(ceiling);
    }
  }
  std::vector<HeldOutGroup> out;
  for (const auto& [key, e] : errors)
    if (!key.first.empty()) out.push_back({key.first, key.second, static_cast<int>(e.first.size()), median(e.first), median(e.second)});
  std::stable_sort(out.begin(), out.end(), [](const HeldOutGroup& a, const HeldOutGroup& b) { return a.rows > b.rows; });
  if (auto all = errors.find({}); all != errors.end())
    out.push_back({"", "", static_cast<int>(all->second.first.size()), median(all->second.first), median(all->second.second)});
  return out;
}

}  // namespace qsel
