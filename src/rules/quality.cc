// A candidate's quality cost from the quality model (docs/quality.md): the
// estimate and its band, the named band of the central value, and the rows that
// measure this format on this model, shown beside the estimate they refine.
#include "qsel/rules/quality.h"

#include <cmath>
#include <limits>
#include <memory>
#include <unordered_map>

#include <fmt/format.h>

#include "qsel/core/json_number.h"
#include "qsel/rules/rule_support.h"
#include "qsel/sizing/memory.h"

namespace qsel {
using nlohmann::json;
namespace {

struct Band {
  const char* name;
  double below;  // the band holds costs under this
};
// Band edges (docs/quality.md, "Bands"): names for the central estimate. "broken" starts
// where the published GGUF tables put types under about 3 bits per weight.
constexpr Band kBands[] = {{"lossless", 0.003}, {"near-lossless", 0.008}, {"small", 0.04},
                           {"moderate", 0.1},   {"large", 0.25},         {"broken", std::numeric_limits<double>::infinity()}};

std::string value_text(const std::string& metric, double v) {
  if (metric == "kld") return fmt::format("KLD {:.4g}", v);
  if (metric == "ln-ppl-ratio") return fmt::format("PPL {:+.2f}%", (std::exp(v) - 1) * 100);
  return fmt::format("{:.1f}% recovered", v);
}

// "0.021" with two significant digits, whatever its size.
std::string nats(double v) { return v >= 0.1 ? fmt::format("{:.2f}", v) : fmt::format("{:.2g}", v); }

}  // namespace

std::string quality_band(double cost) {
  if (cost <= 0) return "reference";
  for (const Band& b : kBands)
    if (cost < b.below) return b.name;
  return "broken";
}

int quality_band_rank(const std::string& band) {
  if (band == "reference") return 0;
  for (std::size_t i = 0; i < std::size(kBands); ++i)
    if (band == kBands[i].name) return static_cast<int>(i) + 1;
  return static_cast<int>(std::size(kBands)) + 1;
}

double broken_threshold() { return kBands[std::size(kBands) - 2].below; }

std::vector<const Record*> quality_rows(const Graph& g, const std::string& format_id) {
  // Indexed once per graph: the ranking asks per candidate, and a scan of every benchmark
  // row each time was a tenth of the launch grid's time.
  using Index = std::unordered_map<std::string, std::vector<const Record*>>;
  auto index = g.memo<Index>("quality-rows-by-format", [&] {
    auto out = std::make_shared<Index>();
    for (const Record* b : g.of_kind(Kind::Benchmark))
      if (b->data.contains("quality")) (*out)[b->str("format_id")].push_back(b);
    return out;
  });
  auto it = index->find(format_id);
  return it != index->end() ? it->second : std::vector<const Record*>{};
}

std::string quality_value_text(const Record& row) {
  const json& q = row.data["quality"];
  return value_text(q.value("metric", ""), number_or(q, "value"));
}

QualityCost quality_cost(const Graph& g, const QualityModel& m, const Record& format, const Record* engine, const ModelSpec* model, double bpw, bool qat) {
  QualityCost q;
  if (is_baseline(format)) {
    q.reference = q.known = true;
    q.band = "reference";
    q.short_text = "reference";
    q.statement = "the unquantized model: every cost is measured against it";
    return q;
  }
  q.estimate = m.estimate(g, format, engine, model, bpw, qat);
  const QualityEstimate& e = q.estimate;
  q.rows = e.rows;
  q.family = e.family ? e.family->id : "";
  q.family_rows = e.family_rows;
  for (const Record* r : e.here) q.here.push_back(r->id);
  q.measured = !q.here.empty();
  if (q.measured) {
    const Record& first = *e.here.front();
    q.here_text = quality_value_text(first);
    q.here_metric = first.data["quality"].value("metric", "");
    q.here_value = number_or(first.data["quality"], "value");
    q.here_model = first.str("model").empty() ? first.str("model_id") : first.str("model");
    q.here_grade = first.str("grade");
  }
  std::string here = !model ? "for an 8B model whose lineage no row measures (no model was given)"
                     : q.measured ? fmt::format("measured on this model: {} [{}]", q.here_text, fmt::join(q.here, ", "))
                                  : "measured on this model: none";
  if (!e.known) {
    q.band = "unknown";
    q.short_text = "no estimate";
    q.statement = !e.family ? fmt::format("no estimate: no quality family covers {} (docs/quality.md); {}", format.id, here)
                            : fmt::format("no estimate: the bits per weight of {} are not known; {}", format.id, here);
    return q;
  }
  q.known = true;
  q.cost = e.cost();
  q.low = e.low();
  q.high = e.high();
  q.band = quality_band(q.cost);
  q.short_text = "≈" + nats(q.cost);
  std::string basis = e.family_rows > 0 ? fmt::format("{} rows of its family ({}) among {}", e.family_rows, q.family, e.rows)
                                        : fmt::format("no row of its family ({}): its prior and the fit of {} rows", q.family, e.rows);
  q.statement = fmt::format("KLD ≈ {} ({}–{}), {}: estimated at {:.2f} bits per weight from {}; {}", nats(q.cost), nats(q.low),
                            nats(q.high), q.band, bpw, basis, here);
  return q;
}

void raise_to(QualityCost& q, double ln_cost, const std::string& because) {
  if (!q.known || q.reference || q.estimate.ln_cost >= ln_cost) return;
  q.estimate.ln_cost = ln_cost;
  q.cost = q.estimate.cost();
  q.low = q.estimate.low();
  q.high = q.estimate.high();
  q.band = quality_band(q.total());
  q.short_text = "≈" + nats(q.cost) + (q.kv_cost > 0 ? " + KV8" : "");
  q.statement = fmt::format("KLD ≈ {} ({}–{}), {}: raised to the estimate of {}, which has more bits in the same family; {}", nats(q.cost),
                            nats(q.low), nats(q.high), q.band, because, q.statement);
}

void mark_as_released(QualityCost& q, const std::string& format_id, bool qat) {
  if (q.reference) return;
  if (qat) {  // trained for its grid, still not the model: the QAT family's estimate stands
    if (!q.known) return;
    q.statement = fmt::format("the publisher's quantization-aware-trained release of {}: {}", format_id, q.statement);
    q.short_text += " (QAT)";
    return;
  }
  q.statement = fmt::format("the model as released; {} itself would be estimated: {}", format_id, q.statement);
  q.reference = q.known = true;
  q.cost = q.low = q.high = 0;
  q.estimate = QualityEstimate{};
  q.band = "reference";
  q.short_text = "as released";
}

void add_kv_cache_cost(const Graph& g, const Record& kv_format, QualityCost& q) {
  double sum = 0;
  int n = 0;
  const Record* first = nullptr;
  for (const Record* b : quality_rows(g, kv_format.id)) {
    const json& qb = b->data["quality"];
    if (qb.value("metric", "") != "kld" && qb.value("metric", "") != "ln-ppl-ratio") continue;
    sum += std::max(0.0, number_or(qb, "value"));
    ++n;
    first = first ? first : b;
  }
  if (n == 0) return;
  q.kv_cost = sum / n;
  q.statement = fmt::format("{}; with the {} cache: + KLD {:.2g} [{}]", q.reference ? "the unquantized weights" : q.statement, kv_format.id,
                            q.kv_cost, first->id);
  q.short_text = q.reference ? fmt::format("≈{} (KV cache)", nats(q.kv_cost)) : q.short_text + " + KV8";
  q.band = quality_band(q.total());
}

}  // namespace qsel
