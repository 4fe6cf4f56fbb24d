// The memory and speed model: weights, KV cache, the engine's budget, and the
// bandwidth-roofline decode ceiling. GB = 1e9 bytes throughout.
#pragma once
#include <string>

#include "qsel/rules/deliberation.h"

namespace qsel {

struct Bpw {
  double value = 0;
  std::string source;  // "measured on <model>", "block struct", "derived: 4 + 16/128"
  bool whole_model = false;  // a measured figure already covers embeddings and promotions
};

// The bits per weight to size `format` with (Rule 5: measured before struct, never the name).
// With the graph, a figure measured on another model is taken from the one closest in size.
Bpw choose_bpw(const Record& format, const ModelSpec& model, const Graph* g = nullptr);
double weights_gb(const Record& format, const ModelSpec& model, const Bpw& bpw);
// KV cache for `tokens` tokens of context and `batch` sequences at `bytes` per element.
double kv_cache_gb(const ModelSpec& model, long tokens, int batch, double bytes);
// What `count` parts give an engine for weights and KV cache, with every
// figure the engine keeps for itself (activation peak, non-torch memory, CUDA
// graphs, buffers). `fraction_override` (--memory-fraction) replaces the engine's
// fraction when positive. `weights_gb` is needed by fraction-of-free engines.
Budget engine_budget(const Record& accelerator, const Record& target, int count, const Record* engine, const ModelSpec& model,
                     double weights_gb, double fraction_override = 0);
// The device total an engine sizes from, per part, in GB, and where it came from.
double device_total_gb(const Record& accelerator, const Record& target, std::string* source);
// The vendor's capacity in GB (memory_gb read as GiB or GB by memory_unit); 0 when unknown.
double capacity_gb(const Record& accelerator);

// "bf16" unless --kv-cache names a dtype.
std::string default_kv_dtype(const Query& q);
// The memory model of one candidate at a KV dtype (Rule 6 re-sizes with 8-bit KV).
Memory candidate_memory(const Deliberation& d, const Candidate& c, const std::string& kv_dtype);
// The smallest tensor-parallel count (2, 4, 8 … 64) above the query's at which the
// candidate fits; 0 when none does (or it cannot be sized).
int smallest_count(const Deliberation& d, const Candidate& c);

}  // namespace qsel
