// Measured quality cost per format (docs/quality.md). Rows are benchmark records
// with a `quality` block; the choice among them is: the query model's own row,
// then its family's at about its size, then any model's; within that, the best
// evidence grade, the model nearest in size, the most direct metric (KLD, then ln
// PPL ratio, then accuracy recovery), an imatrix quantization; the mean of what is left. The conversions to the common scale and the band
// edges are the constants below, each derived in docs/quality.md.
#include "qsel/rules/quality.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <limits>

#include <fmt/format.h>

#include "qsel/rules/rule_support.h"

namespace qsel {
using nlohmann::json;
namespace {

// ln(PPL ratio) -> KLD-equivalent: mean KLD over ln PPL ratio on the rows that
// publish both (docs/quality.md, "Conversions").
constexpr double kKldPerLnPpl = 1.0;
// Accuracy recovery -> KLD-equivalent: nats per point of accuracy lost beyond the
// run-to-run noise of a task suite (reruns of one arm move scores by 0.35 points on
// average in the same-protocol study the corpus cites).
constexpr double kKldPerPointLost = 0.04;
constexpr double kRecoveryNoisePoints = 0.35;
// Costs within this factor are a tie inside a band: two rows of one published table
// (Q4_K_M against Q4_K_S, 1.3x apart on Llama 2 70B) separate, noise-level gaps do not.
constexpr double kTieFactor = 1.2;
// A measured cost is never the reference's zero: "no loss measured" still ranks
// below the unquantized model itself.
constexpr double kMeasuredFloor = 1e-4;

struct Band {
  const char* name;
  double below;  // the band holds costs under this
};
// Band edges on the common scale (docs/quality.md, "Bands"). "broken" starts where
// the published GGUF tables put types under about 3 bits per weight.
constexpr Band kBands[] = {{"lossless", 0.003}, {"near-lossless", 0.008}, {"small", 0.04},
                           {"moderate", 0.1},   {"large", 0.25},         {"broken", std::numeric_limits<double>::infinity()}};

// Bits per weight -> cost, for a format nothing measures: the median published
// KLD of GGUF types at these sizes on 7-8B models (docs/quality.md, "No measurement").
struct Anchor {
  double bpw, cost;
};
constexpr Anchor kAnchors[] = {{1.6, 1.5}, {2.1, 0.6}, {2.6, 0.3}, {3.1, 0.15}, {3.5, 0.09}, {4.3, 0.04},
                               {4.9, 0.025}, {5.7, 0.009}, {6.6, 0.004}, {8.5, 0.0008}, {16, 0}};

double imputed(double bpw) {
  if (bpw <= kAnchors[0].bpw) return kAnchors[0].cost;
  for (std::size_t i = 1; i < std::size(kAnchors); ++i) {
    const Anchor& lo = kAnchors[i - 1];
    const Anchor& hi = kAnchors[i];
    if (bpw > hi.bpw) continue;
    if (hi.cost <= 0) return lo.cost * (hi.bpw - bpw) / (hi.bpw - lo.bpw);  // toward 0 at 16 bits
    double t = (bpw - lo.bpw) / (hi.bpw - lo.bpw);
    return std::exp(std::log(lo.cost) + t * (std::log(hi.cost) - std::log(lo.cost)));
  }
  return 0;
}

double to_common(const std::string& metric, double v) {
  if (metric == "kld") return std::max(0.0, v);
  if (metric == "ln-ppl-ratio") return std::max(0.0, v) * kKldPerLnPpl;
  if (metric == "accuracy-recovery") return std::max(0.0, 100.0 - v - kRecoveryNoisePoints) * kKldPerPointLost;
  return 0;
}

int metric_rank(const std::string& m) { return m == "kld" ? 0 : m == "ln-ppl-ratio" ? 1 : 2; }

// "llama-3" stands for "llama-3.1" (a prefix up to a '.' or '-'), and for itself.
bool same_family(const std::string& row, const std::string& model) {
  if (row.empty() || model.empty()) return false;
  if (row == model) return true;
  return model.size() > row.size() && model.compare(0, row.size(), row) == 0 &&
         (model[row.size()] == '.' || model[row.size()] == '-');
}

std::string family_of_row(const Graph& g, const Record& b) {
  if (const Record* m = g.find(b.str("model_id"))) return m->str("family");
  return b.str("model_family");
}

// The size of the model a row was measured on, in billions: its model record's,
// else a "<number>B" in its model text ("Qwen2 72B", "Llama-3-8B"); 0 when unknown.
double row_params_b(const Graph& g, const Record& b) {
  if (const Record* m = g.find(b.str("model_id"))) return m->data.value("params_b", 0.0);
  std::string t = b.str("model");
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

// Rows on a model of about the query's size first (a 70B loses less than an 8B):
// the distance in factors of two, rounded; kUnknownSize when either size is unknown.
constexpr int kUnknownSize = 100;
constexpr int kMaxSizeDistance = 3;  // factors of two: 8x

int size_distance(const Graph& g, const Record& b, const ModelSpec* m) {
  double p = row_params_b(g, b), want = m ? m->params_b : 0;
  if (p <= 0 || want <= 0) return kUnknownSize;
  return static_cast<int>(std::lround(std::fabs(std::log2(p / want))));
}

// What users download: an imatrix quantization where the row says so (a row that
// does not say is read as a plain one, llama-quantize's default).
int imatrix_rank(const Record& b) {
  const json& qb = b.data["quality"];
  return qb.value("imatrix", false) ? 0 : 1;
}

// 0: this model; 1: its family at about its size (within a factor of three: a 70B
// loses less than an 8B of the same family); 2: anything else.
int match_level(const Graph& g, const Record& b, const ModelSpec* m) {
  if (!m) return 2;
  if (!m->id.empty() && b.str("model_id") == m->id) return 0;
  return same_family(family_of_row(g, b), m->family) && size_distance(g, b, m) <= 1 ? 1 : 2;
}

std::string value_text(const std::string& metric, double v) {
  if (metric == "kld") return fmt::format("KLD {:.4g}", v);
  if (metric == "ln-ppl-ratio") return fmt::format("PPL {:+.2f}%", (std::exp(v) - 1) * 100);
  return fmt::format("{:.1f}% recovered", v);
}

}  // namespace

std::string quality_band(double cost) {
  if (cost <= 0) return "reference";
  for (const Band& b : kBands)
    if (cost < b.below) return b.name;
  return "broken";
}

double broken_threshold() { return kBands[std::size(kBands) - 2].below; }

// What nothing measures is placed one band below where its bits alone would put it:
// a measured format of the same band ranks first.
long quality_band_index(const QualityCost& q) {
  if (q.reference) return 0;
  long n = static_cast<long>(std::size(kBands)), i = 0;
  while (i < n - 1 && q.cost >= kBands[i].below) ++i;
  return std::min(n, i + 1 + (q.measured ? 0 : 1));
}

long quality_bucket(const QualityCost& q) {
  if (q.reference || q.cost <= 1e-5) return std::numeric_limits<int>::min();
  return static_cast<long>(std::floor(std::log(q.cost) / std::log(kTieFactor)));
}

std::vector<const Record*> quality_rows(const Graph& g, const std::string& format_id) {
  std::vector<const Record*> out;
  for (const Record* b : g.of_kind(Kind::Benchmark))
    if (b->str("format_id") == format_id && b->data.contains("quality")) out.push_back(b);
  return out;
}

QualityCost quality_cost(const Graph& g, const Record& format, const ModelSpec* model, double bpw) {
  QualityCost q;
  if (is_baseline(format)) {
    q.reference = true;
    q.band = "reference";
    q.short_text = "reference";
    q.statement = "the unquantized model: every cost is measured against it";
    return q;
  }
  struct Row {
    const Record* r;
    int level, grade, metric, size, imatrix;
    double cost;
  };
  std::vector<Row> rows;
  // A format whose bitrate the user picks (EXL2/EXL3) is measured only by rows at about that bitrate.
  bool chosen_bitrate = format.data.value("bpw", json::object()).contains("target");
  for (const Record* b : quality_rows(g, format.id)) {
    const json& qb = b->data["quality"];
    if (chosen_bitrate && !(qb.contains("bpw") && bpw > 0 && std::fabs(qb["bpw"].get<double>() - bpw) <= 0.25)) continue;
    // Another model more than 8x larger or smaller says little about this one (a 400B MoE
    // at 4 bits loses far less than an 8B): such a row does not stand for it.
    int level = match_level(g, *b, model);
    int distance = size_distance(g, *b, model);
    if (level > 0 && distance > kMaxSizeDistance && distance != kUnknownSize) continue;
    std::string metric = qb.value("metric", "");
    double v = qb.value("value", 0.0);
    rows.push_back({b, level, rule_util::grade_rank(b->str("grade")), metric_rank(metric), distance, imatrix_rank(*b), to_common(metric, v)});
  }
  if (rows.empty()) {
    q.cost = imputed(bpw);
    q.band = quality_band(q.cost);
    q.short_text = "no measurement";
    q.statement = bpw > 0 ? fmt::format("no measurement of {}: placed by its {:.2f} bits per weight alone", format.id, bpw)
                          : fmt::format("no measurement of {}", format.id);
    return q;
  }
  // The model itself, or its family at the same size (Llama 3 8B for Llama 3.1 8B), first, by
  // grade. Past those a logit metric (KLD, PPL ratio) comes before the nearer model: a KLD on
  // another family separates 4-bit from 6-bit, an accuracy average on a sibling does not (its
  // noise is a third of a point, and 99.6% recovered reads as lossless). Then the nearer size.
  auto key = [](const Row& r) {
    bool own = r.level == 0 || (r.level == 1 && r.size == 0);
    return own ? std::make_tuple(0, 0, r.grade, r.size, r.metric, r.imatrix)
               : std::make_tuple(1, r.metric == 2 ? 1 : 0, r.level, r.grade, r.size * 4 + r.metric, r.imatrix);
  };
  auto best = std::min_element(rows.begin(), rows.end(), [&](const Row& a, const Row& b) { return key(a) < key(b); });
  auto best_key = key(*best);
  std::vector<Row> top;
  for (const Row& r : rows)
    if (key(r) == best_key) top.push_back(r);
  // The mean of the published values (a recovery over 100% is noise around 100, not a gain),
  // shown through the row closest to it.
  double sum = 0;
  for (const Row& r : top) sum += r.r->data["quality"].value("value", 0.0);
  std::string metric = top[0].r->data["quality"].value("metric", "");
  double mean = sum / static_cast<double>(top.size());
  std::sort(top.begin(), top.end(), [&](const Row& a, const Row& b) {
    double da = std::fabs(a.r->data["quality"].value("value", 0.0) - mean), db = std::fabs(b.r->data["quality"].value("value", 0.0) - mean);
    return da != db ? da < db : a.r->id < b.r->id;
  });
  const Row& mid = top[0];
  const json& qb = mid.r->data["quality"];
  q.measured = true;
  q.metric = metric;
  q.value = mean;
  q.cost = std::max(kMeasuredFloor, to_common(metric, mean));
  q.band = quality_band(q.cost);
  q.model = mid.r->str("model").empty() ? mid.r->str("model_id") : mid.r->str("model");
  static const char* matches[] = {"this model", "same family", "another model"};
  q.match = matches[mid.level];
  q.grade = mid.r->str("grade");
  q.benchmark = mid.r->id;
  q.rows = static_cast<int>(top.size());
  std::string where = mid.level == 0 ? "" : mid.level == 1 ? " (family)" : " (other model)";
  q.short_text = value_text(q.metric, q.value) + where;
  q.statement = fmt::format("{} on {} ({}, {}{}){}: {} [{}]", value_text(q.metric, q.value), q.model, q.match, q.grade,
                            qb.value("imatrix", false) ? ", imatrix" : "",
                            top.size() > 1 ? fmt::format(", mean of {} rows", top.size()) : "", q.band, q.benchmark);
  return q;
}

void add_kv_cache_cost(const Graph& g, const Record& kv_format, QualityCost& q) {
  QualityCost kv = quality_cost(g, kv_format, nullptr, 0);
  if (!kv.measured) return;
  q.cost = (q.reference ? 0 : q.cost) + kv.cost;
  q.statement = fmt::format("{}; with the {} cache: + {} [{}]", q.reference ? "the unquantized weights" : q.statement,
                            kv_format.id, value_text(kv.metric, kv.value), kv.benchmark);
  q.short_text = q.reference ? fmt::format("{} (KV cache)", value_text(kv.metric, kv.value)) : q.short_text + " + KV8";
  q.measured = q.measured || q.reference;
  q.reference = false;
  q.band = quality_band(q.cost);
}

}  // namespace qsel
