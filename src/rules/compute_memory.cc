// Memory fit and the decode ceiling for every candidate, when the query names a
// model and a part. Every assumption is stated in the candidate's notes.
#include <algorithm>

#include <fmt/format.h>

#include "qsel/rules/memory.h"
#include "qsel/rules/rules.h"
#include "rule_support.h"

namespace qsel {
namespace {

using nlohmann::json;

double kv_bytes(const std::string& kv_cache) { return kv_cache == "fp8" || kv_cache == "int8" ? 1.0 : 2.0; }

// The precision a path computes in, to read the part's dense TFLOPS.
std::string compute_precision(const Candidate& c) {
  if (c.path == "native" && !rule_util::is_baseline(*c.format)) {
    auto need = c.format->strings("/requires_tensor_core");
    if (!need.empty()) return need[0];
  }
  return "bf16";
}

void ceilings(const Deliberation& d, const Candidate& c, Memory& m) {
  const Record& a = *d.query.accelerator;
  const ModelSpec& model = *d.query.model;
  int n = d.query.count, batch = d.query.batch;
  double bw = a.data.value("memory_bandwidth_gbs", 0.0) * n;
  double active = model.active_params_b / model.params_b;
  double per_step = m.weights_gb * active + m.kv_gb;  // bytes read per decode step, GB
  if (bw > 0 && per_step > 0) m.decode_tok_s = batch * bw / per_step;
  const json& tf = a.data.value("tflops", json::object());
  std::string prec = compute_precision(c);
  double tflops = tf.value(prec, json()).is_number() ? tf[prec].get<double>() : (tf.value("fp16", json()).is_number() ? tf["fp16"].get<double>() : 0);
  if (tflops > 0) m.compute_tok_s = tflops * 1e12 * n / (2 * model.active_params_b * 1e9);
}

Memory memory_for(const Deliberation& d, const Candidate& c, const std::string& kv_dtype) {
  const ModelSpec& model = *d.query.model;
  Memory m;
  Bpw b = choose_bpw(*c.format, model);
  m.bpw = b.value;
  m.bpw_source = b.source;
  m.weights_gb = b.value > 0 ? weights_gb(*c.format, model, b) : 0;
  m.kv_dtype = kv_dtype;
  m.kv_gb = kv_cache_gb(model, d.query.context, d.query.batch, kv_bytes(kv_dtype));
  m.total_gb = m.weights_gb + m.kv_gb;
  std::string note;
  m.budget_gb = budget_gb(*d.query.accelerator, d.query.count, c.engine, &note);
  if (!note.empty()) m.notes.push_back(note);
  if (c.engine && c.engine->data.value("memory", json::object()).value("preallocates_context", false))
    m.notes.push_back(fmt::format("{} allocates the whole context's KV cache up front", c.engine->id));
  if (b.value <= 0) {
    m.notes.push_back(fmt::format("no bits-per-weight figure is recorded for {}: it cannot be sized", c.format->id));
    return m;
  }
  m.fits = m.total_gb <= m.budget_gb;
  ceilings(d, c, m);
  return m;
}

}  // namespace

std::string default_kv_dtype(const Query& q) { return q.kv_cache == "auto" ? "bf16" : q.kv_cache; }

Memory candidate_memory(const Deliberation& d, const Candidate& c, const std::string& kv_dtype) { return memory_for(d, c, kv_dtype); }

void compute_memory(Deliberation& d) {
  if (!d.query.model || !d.query.accelerator) return;
  for (auto& c : d.candidates) c.memory = memory_for(d, c, default_kv_dtype(d.query));
  d.notes.push_back("no activation or CUDA-graph overhead is recorded for any engine, so none is added: leave headroom");
}

}  // namespace qsel
