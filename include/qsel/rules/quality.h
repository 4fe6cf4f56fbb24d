// Measured quality cost: what a format costs against the unquantized model,
// from benchmark records with a `quality` block (docs/quality.md). Three
// metrics are published — mean KL divergence, ln(PPL ratio) and accuracy
// recovery — and are placed on one scale (KLD-equivalent nats) through the
// conversions docs/quality.md derives from rows that publish two of them.
// A model's own measurement beats its family's (at about its size), which beats
// another model's, the nearest in size first;
// where no row exists the answer says "no measurement" and the candidate is
// placed by its bits per weight alone.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "qsel/graph/graph.h"
#include "qsel/model/model_spec.h"

namespace qsel {

struct QualityCost {
  bool reference = false;          // the unquantized model itself (or a lossless form of the shipped one)
  bool measured = false;           // a benchmark row says it; false: placed by bits per weight
  std::string metric;              // kld | ln-ppl-ratio | accuracy-recovery (measured only)
  double value = 0;                // as published, in `metric`
  double cost = 0;                 // on the common scale (KLD-equivalent nats); what ranking reads
  std::string band;                // reference | lossless | near-lossless | small | moderate | large | broken
  std::string model;               // what it was measured on
  std::string match;               // "this model" | "same family" | "another model"
  std::string grade;               // the row's evidence grade
  std::string benchmark;           // the row's record id
  int rows = 0;                    // rows at the chosen level (their mean is shown)
  std::string statement;           // one line for people: "KLD 0.031 on Llama-3-8B (controlled) [id]"
  std::string short_text;          // a table cell: "KLD 0.031 (family)", "no measurement"
};

// The quality cost of serving `format` for `model` (null: any model) at `bpw`
// bits per weight (used only when nothing is measured).
QualityCost quality_cost(const Graph& g, const Record& format, const ModelSpec* model, double bpw);

// A quantized KV cache adds its own measured cost (`kv_format`'s benchmark rows, at
// any model): the candidate is no longer the reference, and the statement says so.
// Nothing changes where the cache's cost is unmeasured (Rule 6 warns instead).
void add_kv_cache_cost(const Graph& g, const Record& kv_format, QualityCost& q);

// The band a common-scale cost falls in, and the threshold of "broken".
std::string quality_band(double cost);
double broken_threshold();
// Ranking reads the band first (0 = reference … 6 = broken), then, after the
// serving path, buckets of the value: costs within a factor of 1.2 are a tie.
long quality_band_index(const QualityCost& q);
long quality_bucket(const QualityCost& q);

// Every quality row of the corpus, for docs and tests: format id -> benchmark records.
std::vector<const Record*> quality_rows(const Graph& g, const std::string& format_id);

}  // namespace qsel
