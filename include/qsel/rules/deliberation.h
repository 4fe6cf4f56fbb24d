// What the rule engine works on: candidates (format x engine on one target),
// exclusions, unknowns and the checks to run after deploying. Each rule is a
// small function that reads records and adds to it; renderers only print it.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "qsel/graph/graph.h"
#include "qsel/rules/forecast.h"
#include "qsel/rules/quality.h"
#include "qsel/rules/query.h"

namespace qsel {

struct Warning {
  std::string id;        // gotcha id (or a rule id for rule-made warnings)
  std::string severity;  // blocker | major | minor
  std::string message;
  bool silent = false;
  std::string condition;  // non-empty: applies only if this flag holds ("moe-backend=flashinfer_b12x")
};

struct MatrixCell {
  std::string matrix, engine, row, column, cell, note;
  std::vector<std::string> kernels;  // the kernels the column is about (matrix column `kernel`/`kernels`); empty: the format as a whole
};

// What one device gives one engine (per GPU), and what the engine keeps for itself.
struct Budget {
  double capacity_gb = 0;        // the vendor's capacity, read in its unit (80 GB HBM = 80 GiB = 85.9 GB)
  double total_gb = 0;           // what the engine sizes from: the driver's total, or the Metal working set
  std::string total_source;      // how total_gb was obtained
  std::string kind = "whole-device";  // the engine's budget kind (engine memory.budget)
  double fraction = 1;           // the engine's fraction (vLLM gpu_memory_utilization, SGLang mem_fraction_static ...)
  std::string fraction_source;
  double activation_gb = 0, non_torch_gb = 0, cuda_graphs_gb = 0, buffers_gb = 0;  // kept by the engine, per GPU
  double for_model_gb = 0;       // what weights and KV cache may use, summed over the GPUs
  std::string statement;         // one line: capacity, budget, overheads, sources
};

struct Memory {
  double weights_gb = 0, kv_gb = 0, total_gb = 0, budget_gb = 0;
  Budget budget;
  double bpw = 0;
  std::string bpw_source;   // "measured on <model>", "block struct", "derived: 4 + 16/128"
  std::string kv_dtype;     // a dtype name or the KV-cache format record used
  bool fits = false;         // it loads within the engine's budget (true for "tight" too)
  std::string fit = "no";    // yes (with the margin to spare) | tight (inside the margin) | offload (part in system RAM) | slow (offload under --min-tok-s) | no
  double margin_gb = 0;      // the headroom "yes" keeps, summed over the parts
  int parts = 1;             // the tensor-parallel size the engine runs (the query's count, or the largest valid below it)
  std::string margin_source;
  std::string setting;       // a serving setting the fit needs ("--max-num-seqs 16"); empty when none
  std::optional<Placement> placement;  // set when the model runs partly from system RAM
  double decode_tok_s = 0;  // bandwidth roofline ceiling, aggregate over the batch
  double compute_tok_s = 0; // compute ceiling at the path's precision (0: unknown)
  double forecast_tok_s = 0;  // the ceiling times the engine's measured efficiency (0: no calibration)
  Efficiency efficiency;      // what the forecast rests on
  std::vector<std::string> notes;
};

struct Candidate {
  const Record* format = nullptr;
  const Record* engine = nullptr;   // null for the unquantized baseline
  const Record* kernel = nullptr;   // null when no record names the kernel
  std::string path;                 // native | dequant | emulated
  std::vector<MatrixCell> cells;
  std::vector<std::string> rules;   // "rule-1", …
  std::vector<std::string> why;     // one line per rule that shaped this candidate
  std::vector<Warning> warnings;
  std::vector<std::string> evidence;  // record ids cited
  std::string evidence_grade;         // best grade of the format's quality evidence, or "none recorded"
  QualityCost quality;                // measured cost against the unquantized model (ranking reads it)
  std::vector<std::string> conflicts; // records that disagree about this format on this target
  std::vector<std::string> checks;    // post-deploy checks (Rule 2)
  std::optional<Memory> memory;
  std::string maturity = "mainline";  // mainline | experimental | plugin | deprecated (engine `maturity`)
  std::string maturity_reason;
  bool shipped = false;               // the format the model ships in (its primary release)
  std::string release;                // a published checkpoint in this format, when one is recorded
  bool release_official = false;      // published by the model's own publisher
  int rank_tier = 0;                  // lower ranks first; set by the ranking rules
  bool contested() const { return !conflicts.empty(); }
};

struct Exclusion {
  std::string format, engine, rule, reason;
  std::vector<std::string> evidence;
};

struct Deliberation {
  const Graph& graph;
  const Query& query;
  std::vector<Candidate> candidates;
  std::vector<Exclusion> excluded;
  std::vector<std::string> unknowns;
  std::vector<std::string> notes;  // defaults and assumptions, stated
  std::vector<std::string> changes;  // what would change #1 when it is poor (more GPUs, a shorter context, offload)
  std::vector<std::string> tradeoffs;  // the best full-GPU answer beside the best one partly in system RAM
  mutable std::shared_ptr<const Calibration> calibration;  // fitted on first use (forecasts)
};

// The forecast calibration on the deliberation's corpus, fitted once.
const Calibration& calibration_of(const Deliberation& d);

// Runs every rule in order and ranks the candidates.
Deliberation deliberate(const Graph& g, const Query& q);

}  // namespace qsel
