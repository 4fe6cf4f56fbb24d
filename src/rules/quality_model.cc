// The quality model (include/qsel/rules/quality_model.h, docs/quality.md). The
// constants below are its priors and noise levels; docs/quality.md states each,
// and its held-out check (tests/rules/quality_model_test.cc) measures whether
// they hold.
#include "qsel/rules/quality_model.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>

#include "qsel/core/json_number.h"
#include "qsel/rules/rule_support.h"
#include "qsel/sizing/memory.h"

namespace qsel {
using nlohmann::json;
namespace {

constexpr double kBitsCentre = 4.5;    // the intercepts are the cost at 4.5 bits per weight …
constexpr double kParamsCentre = 8;    // … on an 8B model
constexpr double kBand = 1.2816;       // the band: 80% of a normal either side

struct Prior {
  double mean, sd;
};
constexpr Prior kSlope = {1.0, 0.5};      // ln units per bit: quantization error variance falls ~4x per bit
constexpr Prior kSize = {0.3, 0.3};       // larger models lose less
constexpr Prior kNoImatrix = {0.2, 0.2};  // a GGUF made without an importance matrix loses more
constexpr Prior kReference = {-3.35, 3};  // the reference family at 4.5 bits on 8B: about Q4_K_S's KLD
constexpr double kLineageSd = 0.7;        // how far one model lineage sits from another
constexpr double kModelSd = 0.3;          // one model from its lineage
constexpr double kFormatSd = 0.3;         // one format from its family's line, on every model
constexpr double kPairSd = 0.3;           // one format on one model, beyond that
const Prior kKappa = {std::log(40.0), 1.0};  // accuracy points lost per nat of KLD
constexpr double kLogitSd = 0.15;         // a KLD or PPL table's own noise (ln units)
constexpr double kTaskSd = 2.0;           // one task's recovery noise (points); a mean of n: / sqrt(n)

double grade_noise(const std::string& grade) {
  int r = rule_util::grade_rank(grade);
  return r <= 1 ? 1.0 : r == 2 ? 1.25 : 1.5;
}

// "<number>B" in a model's name ("Qwen2 72B", "Llama-3-8B", "Gemma-4-26B-A4B-it": 26); 0 when none.
double params_from_name(const std::string& t) {
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(t[i])) || (i > 0 && (std::isalnum(static_cast<unsigned char>(t[i - 1])) || t[i - 1] == '.')))
      continue;
    std::size_t j = i;
    while (j < t.size() && (std::isdigit(static_cast<unsigned char>(t[j])) || t[j] == '.')) ++j;
    if (j < t.size() && (t[j] == 'B' || t[j] == 'b') && (j + 1 == t.size() || !std::isalnum(static_cast<unsigned char>(t[j + 1]))))
      return std::atof(t.substr(i, j - i).c_str());
  }
  return 0;
}

}  // namespace

struct QualityModel::Index {
  std::map<std::string, std::size_t> family, format, lineage, model, pair, suite;
  std::string reference;  // the reference family's id
  std::size_t size = 3;   // slope, size, no-imatrix, then the maps' parameters
  std::size_t add(std::map<std::string, std::size_t>& m, const std::string& key) {
    auto [it, fresh] = m.emplace(key, size);
    if (fresh) ++size;
    return it->second;
  }
  static const std::size_t* find(const std::map<std::string, std::size_t>& m, const std::string& key) {
    auto it = m.find(key);
    return it == m.end() ? nullptr : &it->second;
  }
};

namespace {

// The terms of ln cost for a row or a candidate, as (parameter, coefficient): the parameters
// the index does not hold (an unmeasured lineage, model or pair) are zero, with their prior.
std::vector<std::pair<std::size_t, double>> terms(const QualityModel::Index& idx, const QualityRow& r) {
  std::vector<std::pair<std::size_t, double>> g;
  if (r.family)
    if (const std::size_t* fam = QualityModel::Index::find(idx.family, r.family->id)) g.push_back({*fam, 1.0});
  g.push_back({0, -(r.bits - kBitsCentre)});
  g.push_back({1, -std::log(r.params_b / kParamsCentre)});
  if (!r.imatrix) g.push_back({2, 1.0});
  if (const std::size_t* i = QualityModel::Index::find(idx.format, r.format)) g.push_back({*i, 1.0});
  if (!r.lineage.empty())
    if (const std::size_t* i = QualityModel::Index::find(idx.lineage, r.lineage)) g.push_back({*i, 1.0});
  if (!r.model.empty()) {
    if (const std::size_t* i = QualityModel::Index::find(idx.model, r.model)) g.push_back({*i, 1.0});
    if (const std::size_t* i = QualityModel::Index::find(idx.pair, r.model + "|" + r.format)) g.push_back({*i, 1.0});
  }
  return g;
}

}  // namespace

std::string quality_lineage(const std::string& family) {
  std::string f = family;
  if (f.size() > 4 && f.compare(f.size() - 4, 4, "-moe") == 0) f.resize(f.size() - 4);
  if (auto dot = f.find('.'); dot != std::string::npos) f.resize(dot);
  return f;
}

const Record* quality_family_of(const Graph& g, const Record& format, const Record* engine, bool qat) {
  const Record* general = nullptr;
  for (const Record* t : g.of_kind(Kind::Technique)) {
    const json* qf = t->data.contains("quality_family") ? &t->data["quality_family"] : nullptr;
    if (!qf) continue;
    if (qat) {
      if (qf->value("release", "") == "qat") return t;
      continue;
    }
    if (!rule_util::contains(t->strings("/applies/formats"), format.id)) continue;
    auto engines = t->strings("/applies/engines");
    if (engines.empty()) general = general ? general : t;
    else if (engine && rule_util::contains(engines, engine->id)) return t;
  }
  return qat ? nullptr : general;
}

std::string QualityModel::model_key(const Graph& g, const Record& row) {
  if (std::string id = row.str("model_id"); !id.empty() && g.find(id)) return id;
  std::string name = row.str("model");
  if (auto paren = name.find(" ("); paren != std::string::npos) name.resize(paren);
  std::string out;
  for (char c : name) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c == ' ' ? '-' : c)));
  return out;
}

QualityModel::QualityModel(const Graph& g, const std::set<std::string>& leave_out) {
  auto idx = std::make_shared<Index>();
  // The rows.
  for (const Record* b : g.of_kind(Kind::Benchmark)) {
    if (!b->data.contains("quality")) continue;
    const json& q = b->data["quality"];
    const Record* format = g.find(b->str("format_id"));
    if (!format || format->str("regime") == "kv-cache" || is_baseline(*format)) continue;
    QualityRow r;
    r.record = b;
    r.format = format->id;
    r.family = quality_family_of(g, *format, g.find(b->str("engine")), false);
    if (!r.family) {
      skipped_.push_back(b->id + ": no quality family covers " + format->id);
      continue;
    }
    const Record* m = g.find(b->str("model_id"));
    r.params_b = m ? number_or(m->data, "params_b") : params_from_name(b->str("model"));
    if (r.params_b <= 0) {
      skipped_.push_back(b->id + ": the model's size is not recorded");
      continue;
    }
    ModelSpec spec;
    spec.id = m ? m->id : "";
    spec.params_b = r.params_b;
    r.bits = q.contains("bpw") && q["bpw"].is_number() ? q["bpw"].get<double>() : choose_bpw(*format, spec, &g).value;
    if (r.bits <= 0) {
      skipped_.push_back(b->id + ": no bits per weight for " + format->id);
      continue;
    }
    r.model = model_key(g, *b);
    if (leave_out.count(r.model)) continue;
    r.lineage = quality_lineage(m ? m->str("family") : b->str("model_family"));
    r.metric = q.value("metric", "");
    r.value = number_or(q, "value");
    r.imatrix = q.value("imatrix", false) || format->str("scheme") != "gguf";
    r.suite = q.value("suite", "");
    r.tasks = std::max(1, q.value("tasks", 1));
    r.noise = grade_noise(b->str("grade"));
    if (r.metric != "accuracy-recovery" && r.value <= 0) {
      skipped_.push_back(b->id + ": a logit metric of 0 or less");
      continue;
    }
    rows_.push_back(r);
  }
  // The parameters: every family technique (measured or not), then what the rows name.
  for (const Record* t : g.of_kind(Kind::Technique)) {
    if (!t->data.contains("quality_family")) continue;
    idx->add(idx->family, t->id);
    if (t->data["quality_family"].value("reference", false) && idx->reference.empty()) idx->reference = t->id;
  }
  for (const QualityRow& r : rows_) {
    idx->add(idx->format, r.format);
    if (!r.lineage.empty()) idx->add(idx->lineage, r.lineage);
    idx->add(idx->model, r.model);
    idx->add(idx->pair, r.model + "|" + r.format);
    if (r.metric == "accuracy-recovery") idx->add(idx->suite, r.suite);
  }
  index_ = idx;
  std::vector<double> theta(idx->size, 0.0);
  theta[0] = kSlope.mean;
  theta[1] = kSize.mean;
  theta[2] = kNoImatrix.mean;
  for (const auto& [id, i] : idx->family) {
    const Record* t = g.find(id);
    theta[i] = kReference.mean + (id == idx->reference ? 0 : number_or(t->data["quality_family"], "offset"));
  }
  for (const auto& [s, i] : idx->suite) theta[i] = kKappa.mean;
  std::vector<Prior> family_prior(idx->size, Prior{0, 1});
  for (const auto& [id, i] : idx->family)
    family_prior[i] = {number_or(g.find(id)->data["quality_family"], "offset"), number_or(g.find(id)->data["quality_family"], "spread", 1)};
  const std::size_t* ref = idx->reference.empty() ? nullptr : Index::find(idx->family, idx->reference);

  fit_ = least_squares(
      [&](const std::vector<double>& t, std::vector<Residual>& out) {
        out.clear();
        auto prior = [&](std::size_t i, Prior p) { out.push_back({(p.mean - t[i]) / p.sd, {{i, -1.0 / p.sd}}}); };
        prior(0, kSlope);
        prior(1, kSize);
        prior(2, kNoImatrix);
        for (const auto& [id, i] : idx->family) {
          if (ref && i == *ref) {
            prior(i, kReference);
            continue;
          }
          const Prior& p = family_prior[i];
          if (!ref) {
            prior(i, {kReference.mean + p.mean, std::hypot(kReference.sd, p.sd)});
            continue;
          }
          double r = (t[*ref] + p.mean - t[i]) / p.sd;  // offset from the reference family
          out.push_back({r, {{i, -1.0 / p.sd}, {*ref, 1.0 / p.sd}}});
        }
        for (const auto& [k, i] : idx->format) prior(i, {0, kFormatSd});
        for (const auto& [k, i] : idx->lineage) prior(i, {0, kLineageSd});
        for (const auto& [k, i] : idx->model) prior(i, {0, kModelSd});
        for (const auto& [k, i] : idx->pair) prior(i, {0, kPairSd});
        for (const auto& [k, i] : idx->suite) prior(i, kKappa);
        for (const QualityRow& r : rows_) {
          std::vector<std::pair<std::size_t, double>> g_mu = terms(*idx, r);
          double mu = 0;
          for (const auto& [i, d] : g_mu) mu += d * t[i];
          if (r.metric == "accuracy-recovery") {
            std::size_t ks = idx->suite.at(r.suite);
            double sd = kTaskSd / std::sqrt(static_cast<double>(r.tasks)) * r.noise;
            double pred = std::exp(t[ks] + mu);
            Residual res{((100.0 - r.value) - pred) / sd, {}};
            for (const auto& [i, d] : g_mu) res.grad.push_back({i, -pred * d / sd});
            res.grad.push_back({ks, -pred / sd});
            out.push_back(std::move(res));
          } else {
            double sd = kLogitSd * r.noise;
            Residual res{(std::log(r.value) - mu) / sd, {}};
            for (const auto& [i, d] : g_mu) res.grad.push_back({i, -d / sd});
            out.push_back(std::move(res));
          }
        }
      },
      theta);
}

double QualityEstimate::cost() const { return known ? std::exp(ln_cost) : 0; }
double QualityEstimate::low() const { return known ? std::exp(ln_cost - kBand * sd) : 0; }
double QualityEstimate::high() const { return known ? std::exp(ln_cost + kBand * sd) : 0; }

double QualityModel::slope() const { return fit_.theta[0]; }
double QualityModel::no_imatrix_effect() const { return fit_.theta[2]; }
double QualityModel::logit_noise(const QualityRow& row) const { return kLogitSd * row.noise; }

std::pair<double, double> QualityModel::family_offset(const std::string& family) const {
  const std::size_t* f = Index::find(index_->family, family);
  const std::size_t* ref = Index::find(index_->family, index_->reference);
  if (!f || !ref || *f == *ref) return {0, 0};
  return {fit_.theta[*f] - fit_.theta[*ref], std::sqrt(fit_.variance({{*f, 1.0}, {*ref, -1.0}}))};
}
double QualityModel::size_effect() const { return fit_.theta[1]; }
double QualityModel::kappa(const std::string& suite) const {
  const std::size_t* i = Index::find(index_->suite, suite);
  return std::exp(i ? fit_.theta[*i] : kKappa.mean);
}

std::vector<std::pair<std::size_t, double>> QualityModel::row_gradient(const QualityRow& r, double* ln) const {
  auto g = terms(*index_, r);
  double mu = 0;
  for (const auto& [i, d] : g) mu += d * fit_.theta[i];
  *ln = mu;
  return g;
}

std::pair<double, double> QualityModel::predicted_ln(const QualityRow& r) const {
  double ln = 0;
  auto g = row_gradient(r, &ln);
  double var = fit_.variance(g);
  if (!r.lineage.empty() && !Index::find(index_->lineage, r.lineage)) var += kLineageSd * kLineageSd;
  if (!Index::find(index_->model, r.model)) var += kModelSd * kModelSd;
  if (!Index::find(index_->pair, r.model + "|" + r.format)) var += kPairSd * kPairSd;
  if (!Index::find(index_->format, r.format)) var += kFormatSd * kFormatSd;
  return {ln, std::sqrt(var)};
}

std::pair<double, double> QualityModel::predicted_points(const QualityRow& r) const {
  auto [ln, sd] = predicted_ln(r);
  const std::size_t* ks = Index::find(index_->suite, r.suite);
  double log_kappa = ks ? fit_.theta[*ks] : kKappa.mean;
  double kappa_var = ks ? fit_.cov(*ks, *ks) : kKappa.sd * kKappa.sd;
  double pred = std::exp(log_kappa + ln);
  double noise = kTaskSd / std::sqrt(static_cast<double>(r.tasks)) * r.noise;
  return {pred, std::sqrt(pred * pred * (sd * sd + kappa_var) + noise * noise)};
}

QualityEstimate QualityModel::estimate(const Graph& g, const Record& format, const Record* engine, const ModelSpec* model, double bits, bool qat) const {
  QualityEstimate e;
  e.rows = static_cast<int>(rows_.size());
  e.family = quality_family_of(g, format, engine, qat);
  if (!e.family || bits <= 0) return e;
  QualityRow r;
  r.family = e.family;
  r.format = format.id;
  r.bits = bits;
  r.params_b = model && model->params_b > 0 ? model->params_b : kParamsCentre;
  r.lineage = model ? quality_lineage(model->family) : "";
  r.model = model ? model->id : "";
  e.gradient = row_gradient(r, &e.ln_cost);
  const Index& idx = *index_;
  double shared = 0;  // what every candidate on this model shares: an unmeasured lineage or model
  if (!r.lineage.empty() && !Index::find(idx.lineage, r.lineage)) shared += kLineageSd * kLineageSd;
  if (r.model.empty() || !Index::find(idx.model, r.model)) shared += kModelSd * kModelSd;
  if (r.model.empty() || !Index::find(idx.pair, r.model + "|" + r.format)) e.own_var = kPairSd * kPairSd;
  if (!Index::find(idx.format, r.format)) e.own_var += kFormatSd * kFormatSd;
  e.sd = std::sqrt(fit_.variance(e.gradient) + shared + e.own_var);
  for (const QualityRow& row : rows_) {
    if (row.family == e.family) ++e.family_rows;
    if (!r.model.empty() && row.model == r.model && row.format == r.format) e.here.push_back(row.record);
  }
  e.known = true;
  return e;
}

double QualityModel::difference_sd(const QualityEstimate& a, const QualityEstimate& b) const {
  return priced_difference_sd(a, 0, b, 0);
}

double QualityModel::priced_difference_sd(const QualityEstimate& a, double price_a, const QualityEstimate& b, double price_b) const {
  auto scale = [](const QualityEstimate& e, double price) {
    if (!e.known) return 0.0;
    double c = e.cost();
    return c / (c + price);
  };
  double ha = scale(a, price_a), hb = scale(b, price_b);
  std::map<std::size_t, double> g;
  for (const auto& [i, d] : a.gradient) g[i] += ha * d;
  for (const auto& [i, d] : b.gradient) g[i] -= hb * d;
  std::vector<std::pair<std::size_t, double>> diff(g.begin(), g.end());
  return std::sqrt(fit_.variance(diff) + ha * ha * a.own_var + hb * hb * b.own_var);
}

double quantile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[std::min(v.size() - 1, static_cast<std::size_t>(p * static_cast<double>(v.size())))];
}

HeldOutError held_out_error(const Graph& g) {
  HeldOutError h;
  QualityModel all(g);
  std::vector<std::string> keys;
  for (const auto& r : all.rows())
    if (std::find(keys.begin(), keys.end(), r.model) == keys.end()) keys.push_back(r.model);
  h.models = static_cast<int>(keys.size());
  for (const auto& key : keys) {
    QualityModel held(g, {key});
    std::vector<double> residuals;
    for (const auto& r : all.rows()) {
      if (r.model != key) continue;
      if (r.metric == "accuracy-recovery") {
        auto [points, sd] = held.predicted_points(r);
        double err = std::fabs((100 - r.value) - points);
        h.points.push_back(err);
        h.points_in_band += err <= kBand * sd;
      } else {
        auto [ln, sd] = held.predicted_ln(r);
        residuals.push_back(std::log(r.value) - ln);
        h.logit.push_back(std::fabs(residuals.back()));
        h.logit_in_band += std::fabs(residuals.back()) <= kBand * std::hypot(sd, held.logit_noise(r));
      }
    }
    if (residuals.size() < 3) continue;  // a model's own level needs a few rows to remove
    double mean = 0;
    for (double v : residuals) mean += v / static_cast<double>(residuals.size());
    for (double v : residuals) h.centred.push_back(std::fabs(v - mean));
  }
  return h;
}

}  // namespace qsel
