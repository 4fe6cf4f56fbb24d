// What a candidate costs in quality against the unquantized model: the quality
// model's estimate (quality_model.h) with its band, the rows measured on this
// model and format beside it, and the names the tables use (docs/quality.md).
// The unquantized model, and the format a model ships in, are the reference.
#pragma once
#include <string>
#include <vector>

#include "qsel/graph/graph.h"
#include "qsel/model/model_spec.h"
#include "qsel/rules/quality_model.h"

namespace qsel {

struct QualityCost {
  bool reference = false;          // the unquantized model, or the model as released
  bool known = false;              // an estimate exists (a quality family and bits per weight)
  bool measured = false;           // rows measure this format on this model
  double cost = 0;                 // the weights' central estimate, KLD-equivalent nats
  double low = 0, high = 0;        // its 80% band
  double kv_cost = 0;              // a quantized KV cache's measured cost, added (add_kv_cache_cost)
  double total() const { return cost + kv_cost; }  // what ranking reads, before the price of the fit
  QualityEstimate estimate;        // what tie tests read (quality_model.h)
  std::string band;                // reference | lossless | near-lossless | small | moderate | large | broken | unknown
  std::string family;              // the quality-family technique
  int family_rows = 0, rows = 0;   // rows of the family, rows the fit read
  std::vector<std::string> here;   // rows of this format on this model (record ids)
  std::string here_text;           // the first of them as published: "99.6% recovered"
  std::string here_metric, here_model, here_grade;  // … and its metric, model and grade
  double here_value = 0;
  std::string statement;           // one line for people, with its basis
  std::string short_text;          // a table cell: "≈0.021", "reference", "no estimate"
};

// The quality cost of serving `format` (made as `engine` makes it) for `model` at
// `bpw` bits per weight; `qat`: the publisher's quantization-aware-trained release.
QualityCost quality_cost(const Graph& g, const QualityModel& m, const Record& format, const Record* engine, const ModelSpec* model, double bpw, bool qat);

// Within a family more bits are never worse: raise `q` to `ln_cost` (the estimate of
// `because`, a format of its family with more bits) when it is below it.
void raise_to(QualityCost& q, double ln_cost, const std::string& because);

// The candidate is the model as released: the reference, whatever the format's family would
// estimate. A QAT release (qat) is the publisher's own quantized file, not the model: it keeps
// the QAT family's estimate and says so.
void mark_as_released(QualityCost& q, const std::string& format_id, bool qat);

// A quantized KV cache adds its own measured cost (`kv_format`'s benchmark rows, at
// any model): the candidate is no longer the reference, and the statement says so.
// Nothing changes where the cache's cost is unmeasured (Rule 6 warns instead).
void add_kv_cache_cost(const Graph& g, const Record& kv_format, QualityCost& q);

// The band a cost falls in, and the threshold of "broken"; a band's place, reference 0 to unknown 7.
std::string quality_band(double cost);
int quality_band_rank(const std::string& band);
double broken_threshold();

// Every quality row of the corpus, for docs and tests: format id -> benchmark records.
std::vector<const Record*> quality_rows(const Graph& g, const std::string& format_id);

// A row's published value as people read it: "KLD 0.028", "PPL +1.2%", "99.6% recovered".
std::string quality_value_text(const Record& row);

}  // namespace qsel
