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
Bpw choose_bpw(const Record& format, const ModelSpec& model);
double weights_gb(const Record& format, const ModelSpec& model, const Bpw& bpw);
// KV cache for `tokens` tokens of context and `batch` sequences at `bytes` per element.
double kv_cache_gb(const ModelSpec& model, long tokens, int batch, double bytes);
// Memory an engine lets the model use on `count` parts.
double budget_gb(const Record& accelerator, int count, const Record* engine, std::string* note);

// "bf16" unless --kv-cache names a dtype.
std::string default_kv_dtype(const Query& q);
// The memory model of one candidate at a KV dtype (Rule 6 re-sizes with 8-bit KV).
Memory candidate_memory(const Deliberation& d, const Candidate& c, const std::string& kv_dtype);

}  // namespace qsel
