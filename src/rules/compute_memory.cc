// Memory fit and the decode ceiling for every candidate, when the query names a
// model and a part. The budget is the candidate's engine's (engine_budget); a
// candidate that does not fit says the smallest GPU count that would. The
// layout (tensor, pipeline, expert parallel, replicas) is the engine's own (layout.cc). Every assumption is stated.
#include <algorithm>
#include <cctype>
#include <cmath>

#include <fmt/format.h>

#include "qsel/core/units.h"
#include "qsel/rules/candidate_memory.h"
#include "qsel/rules/layout.h"
#include "qsel/rules/rules.h"
#include "qsel/rules/rule_support.h"
#include "qsel/core/json_number.h"

namespace qsel {
using nlohmann::json;
namespace {

// Bytes per cached value: a KV-cache format record's kv_bits (Rule 6's choice: 8.5 for GGML's
// Q8_0 and ExLlama's Q8 blocks), 8-bit floats and integers, GGML's Q8_0 blocks (34 bytes per
// 32), else 16-bit. Takes the dtype ("q8_0", "fp8") or the KV format record's id.
double kv_bytes(const Graph& g, const std::string& kv_cache) {
  if (const Record* f = g.find(kv_cache); f && f->str("regime") == "kv-cache" && number_or(f->data, "kv_bits") > 0)
    return number_or(f->data, "kv_bits") / 8;
  if (kv_cache.find("q8_0") != std::string::npos || kv_cache.find("q8-0") != std::string::npos) return 34.0 / 32;
  if (kv_cache.find("fp8") != std::string::npos || kv_cache.find("int8") != std::string::npos) return 1.0;
  return 2.0;
}

// A serving engine (continuous batching over a paged KV cache).
bool paged(const Candidate& c) { return c.engine && c.engine->str("role") == "serving"; }

// How the engine keeps a hybrid model's recurrent state (engine memory.recurrent_state): bytes per value
// and the sequences it allocates the state for when its command sets no count. Not recorded: 16-bit
// (the model's dtype) for the sequences the plan sizes.
struct StateKeep {
  double bytes = 2;
  int sequences = 0;
  bool recorded = false;
};

StateKeep state_keep(const Record* engine) {
  StateKeep k;
  if (!engine) return k;
  const json& r = object_field(object_field(engine->data, "memory"), "recurrent_state");
  if (r.empty()) return k;
  k.recorded = true;
  k.bytes = number_or(r, "bytes", 2);
  if (r.value("sequences", json()).is_number_integer()) k.sequences = r["sequences"].get<int>();
  return k;
}

// The recurrent state of a hybrid model (model.linear) for the plan: a serving engine keeps it per running
// sequence in its pool; an engine that allocates slots up front keeps it for every slot its command opens.
void size_state(const Deliberation& d, const Candidate& c, Memory& m) {
  const ModelSpec& model = *d.query.model;
  if (!model.linear.any()) return;
  StateKeep k = state_keep(c.engine);
  m.state_bytes = k.bytes;
  m.state_sequences = paged(c) ? m.running : std::max(m.running, k.sequences);
  m.state_gb = recurrent_state_gb(model, m.state_sequences, k.bytes);
  double per_mib = recurrent_state_gb(model, 1, k.bytes) * kBytesPerGB / kBytesPerMiB;
  std::string dtype = k.bytes == 4 ? "f32" : k.bytes == 2 ? "16-bit" : fmt::format("{:g} bytes a value", k.bytes);
  std::string who = c.engine ? c.engine->id : "the engine";
  m.notes.push_back(fmt::format(
      "recurrent state: {} linear-attention layers keep {:.2f} MiB per sequence ({}{}), whatever the context; {} sequence{} "
      "({}): {:.2f} GB beside the KV cache",
      model.linear.layers, per_mib, dtype, k.recorded ? fmt::format(", as {} keeps it", who) : ", the model's dtype: not recorded for " + who,
      m.state_sequences, m.state_sequences == 1 ? "" : "s",
      paged(c) ? "per running sequence, from the KV pool"
      : k.sequences > m.running ? fmt::format("{} allocates {} by default and the command sets no count", who, k.sequences)
                                : "one per sequence of the batch",
      m.state_gb));
}

// The precision a path computes in, to read the part's dense TFLOPS.
std::string compute_precision(const Candidate& c) {
  if (c.path == "native" && !is_baseline(*c.format)) {
    auto need = c.format->strings("/requires_tensor_core");
    if (!need.empty()) return need[0];
  }
  return "bf16";
}

// Why a backend forecasts with its engine's per-layer term over every backend, not one of its own.
std::string pooled_floor_reason(const FloorBackend* own, const std::string& backend) {
  if (!own) return fmt::format(": {} has fewer than {} of its own", backend, kMinFloorRows);
  return fmt::format(": {}'s own ({:.0f} us, {} runs) predicts them no better held out", backend, own->layer_s * 1e6, own->rows);
}

// The ceiling times what the engine reaches of it on this backend, plus the fixed work each layer adds to a step
// (docs/performance-model.md). `start_decode_tok_s`, when given, is the bandwidth ceiling at the start of the
// context (no KV cache read yet): the same terms give the rate there (forecast_start_tok_s).
void forecast(const Deliberation& d, const Candidate& c, Memory& m, bool offloaded, double start_decode_tok_s = 0) {
  if (!c.engine) return;
  std::string backend = c.backend.empty() ? backend_of(*d.query.target) : c.backend;
  const Calibration& cal = calibration_of(d);
  m.efficiency = cal.for_engine(c.engine->id, backend, offloaded, d.query.accelerator ? memory_class_of(*d.query.accelerator) : "");
  auto ceiling_of = [&](double decode) { return m.compute_tok_s > 0 && decode > 0 ? std::min(decode, m.compute_tok_s) : decode; };
  int layers = d.query.model ? d.query.model->layers : 0;
  bool tensor_parallel = !offloaded && !m.layout.layer_split && m.layout.tp > 1;
  double layer_s = 0;  // what each layer adds to a step beyond its bytes
  bool forecasting = m.efficiency.value > 0 && ceiling_of(m.decode_tok_s) > 0 && layers > 0;
  if (forecasting && tensor_parallel) {
    // Tensor parallel: every layer of every decode step also waits on its all-reduces and the engine's per-step
    // work, and an MoE's on one expert kernel per routed expert, fitted on the corpus's multi-GPU runs of this
    // engine on this backend where it has three, else of the engine, else of every engine (TpTerm).
    // The terms were fitted at the every-engine efficiency; the forecast reads them at it too.
    m.efficiency = cal.for_engine("", "", false);
    TpTerm tp = cal.tensor_parallel(c.engine->id, backend);
    int experts = d.query.model->moe() ? std::max(0, d.query.model->active_experts) : 0;
    layer_s = tp.layer_s(experts);
    if (layer_s > 0) {
      m.efficiency.basis += fmt::format("; plus {:.0f} us per layer for tensor parallel ({:.0f} us: {}", layer_s * 1e6, tp.base_s * 1e6,
                                        TpTerm::describe(tp.base_group, tp.base_rows));
      if (experts > 0 && tp.expert_s > 0)
        m.efficiency.basis += fmt::format("; and {} routed experts x {:.0f} us: {}", experts, tp.expert_s * 1e6,
                                          TpTerm::describe(tp.expert_group, tp.expert_rows));
      m.efficiency.basis += ")";
    }
  } else if (forecasting) {
    // One GPU (or an offload or layer split): the engine's fixed work per layer (launches, norms, routing,
    // sampling), and for an MoE its routing and expert dispatch, as the held-out checks apply them (single_gpu_step).
    // Serving engines' term is fitted on their own runs, mostly MoE: they add no MoE term. An engine with no runs
    // of its own takes the pooled (or serving) term with the efficiency it was fitted with.
    double bw = d.query.accelerator ? d.query.accelerator->data.value("memory_bandwidth_gbs", 0.0) : 0;
    auto step = cal.single_gpu_step(m.efficiency, c.engine->id, backend, paged(c), offloaded, d.query.model->moe() && !paged(c), bw);
    layer_s = step.layer_s;
    if (const StepFloor* floor = step.floor) {
      if (step.floor_efficiency) {
        m.efficiency.value = step.efficiency;
        m.efficiency.basis += fmt::format(", {:.2f} with the per-layer term taken out", m.efficiency.value);
      }
      // A term not fitted on this engine's runs on this backend says so, as a pooled efficiency does.
      m.efficiency.basis += fmt::format("; plus {:.0f} us per layer per step ({} runs: {}{})", floor->layer_s * 1e6, floor->rows, floor->source,
                                        !floor->pooled            ? ""
                                        : floor->efficiency <= 0 ? pooled_floor_reason(cal.floor_backend(c.engine->id, backend), backend)
                                                                 : ", pooled");
    }
    if (const Calibration::MoeTerm* moe = step.moe)
      m.efficiency.basis += fmt::format("; plus {:.0f} us per layer for MoE routing ({:.0f} MB a layer at {:.0f} GB/s; {} runs: {})",
                                        moe->layer_s(bw) * 1e6, moe->layer_gb * 1e3, bw, moe->rows, moe->source);
  }
  auto rate = [&](double decode) {
    double ceiling = ceiling_of(decode);
    return m.efficiency.value > 0 && ceiling > 0 ? m.running / (m.running / (m.efficiency.value * ceiling) + layers * layer_s) : 0;
  };
  m.forecast_tok_s = rate(m.decode_tok_s);
  if (m.forecast_tok_s > 0) m.per_sequence_tok_s = m.forecast_tok_s / std::max(1, m.running);
  if (start_decode_tok_s > 0) m.forecast_start_tok_s = rate(start_decode_tok_s);
}

// Parameters one decode step reads for a batch: a dense model's all; an MoE's shared part and the
// routed experts the batch's tokens touch, E x (1 - (1 - k/E)^batch) of E per layer under uniform
// routing (at batch 1, its k active experts; DeepSeek-R1 at batch 8: ~57 of 256, 4.4x the bytes of
// one token).
double moe_read_params_b(const ModelSpec& model, int batch) {
  if (!model.moe() || model.active_experts <= 0 || model.experts <= model.active_experts || model.active_params_b <= 0)
    return model.active_params_b > 0 ? model.active_params_b : model.params_b;
  double e = model.experts, k = model.active_experts;
  double per_expert = model.params_per_expert_b();
  double touched = e * (1 - std::pow(1 - k / e, batch));
  return std::min(model.params_b, model.active_params_b - k * per_expert + touched * per_expert);
}

void ceilings(const Deliberation& d, const Candidate& c, Memory& m) {
  const Record& a = *d.query.accelerator;
  const ModelSpec& model = *d.query.model;
  int batch = m.running;
  // Tensor parallelism reads each GPU's share at once; pipeline stages and a layer split (llama.cpp's
  // -sm layer) pass each token through their GPUs in turn, so only the TP size multiplies.
  int tp = m.layout.layer_split ? 1 : m.layout.tp;
  double bw = a.data.value("memory_bandwidth_gbs", 0.0) * tp;
  double active = model.params_b > 0 ? model.active_params_b / model.params_b : 1;
  if (batch > 1 && model.params_b > 0) active = moe_read_params_b(model, batch) / model.params_b;
  double per_step = m.weights_gb * active + m.kv_gb + m.state_gb;  // bytes read per decode step, GB
  if (bw > 0 && per_step > 0) m.decode_tok_s = batch * bw / per_step;
  const json& tf = object_field(a.data, "tflops");
  std::string prec = compute_precision(c);
  double tflops = number_or(tf, prec.c_str(), number_or(tf, "fp16"));
  if (tflops > 0 && model.active_params_b > 0) m.compute_tok_s = tflops * 1e12 * tp / (2 * model.active_params_b * 1e9);
  // The forecast is the rate at the end of the context, its whole KV cache read each step; at the start a step reads
  // the weights alone, which a user reading "decode tok/s" would otherwise take for the rate they get first.
  double start = m.kv_gb > 0 && bw > 0 ? batch * bw / (m.weights_gb * active + m.state_gb) : 0;
  forecast(d, c, m, false, start);
}

// The headroom a comfortable fit keeps, per part: --headroom, else the engine's
// own fitting margin, else qsel's default (llama.cpp's --fit-target, 1 GiB).
double margin_per_part(const Deliberation& d, const Candidate& c, double total_gb, std::string* source) {
  const Query& q = d.query;
  if (q.headroom_gb >= 0) {
    *source = fmt::format("--headroom {:g} GB per part", q.headroom_gb);
    return q.headroom_gb;
  }
  if (q.headroom_fraction >= 0) {
    *source = fmt::format("--headroom {:g}% of each part", q.headroom_fraction * 100);
    return q.headroom_fraction * total_gb;
  }
  const json mem = c.engine ? object_field(c.engine->data, "memory") : json::object();
  double margin = kGiBInGB;
  if (mem.contains("margin_gib") && mem["margin_gib"].is_number()) {
    *source = fmt::format("{}'s own fitting margin, {:g} GiB per device", c.engine->id, mem["margin_gib"].get<double>());
    margin = mem["margin_gib"].get<double>() * kGiBInGB;
  } else {
    *source = "qsel's default margin, 1 GiB per part (llama.cpp's --fit-target default; this engine states none)";
  }
  // A working set the OS shares (Metal): the share of it an engine's code calls too close to run well.
  const Record* t = q.target;
  double share = t ? number_or(object_field(t->data, "working_set_margin"), "share") : 0;
  if (share > 0 && share * total_gb > margin) {
    *source = fmt::format("{:g}% of the {:.1f} GB working set ({}'s working_set_margin: engine code calls a model past {:g}% of "
                          "Metal's recommended working set slow; larger than {})",
                          share * 100, total_gb, t->id, 100 - share * 100, *source);
    margin = share * total_gb;
  }
  return margin;
}

// An engine whose profiling peak grows with max_num_seqs (vLLM) fits more when
// it is lowered: the largest power of two at or above the batch that makes room.
std::string seqs_setting(const Deliberation& d, const Candidate& c, Memory& m, int count) {
  if (!c.engine || m.budget.activation_gb <= 0) return "";
  const json ap = object_field(object_field(c.engine->data, "memory"), "activation_peak");
  std::string flag = ap.value("flag", "");
  if (flag.empty()) return "";
  double deficit = m.total_gb - m.budget_gb;
  double per_part = m.budget.activation_gb;
  double seqs = per_part > 0 ? std::round(per_part * 1e9 / (ap.value("bytes_per_seq_vocab", 0.0) *
                                                             static_cast<double>(std::max(1L, d.query.model->vocab))))
                             : 0;
  if (deficit <= 0 || seqs < 2) return "";
  for (double s = seqs / 2; s >= std::max(1, d.query.batch); s /= 2) {
    double saved = count * per_part * (1 - s / seqs);
    if (saved >= deficit) {
      m.budget_gb += saved;
      m.budget.for_model_gb = m.budget_gb;
      m.budget.activation_gb = per_part * s / seqs;
      m.max_num_seqs = static_cast<int>(s);
      return fmt::format("{} {:g}", flag, s);
    }
  }
  return "";
}

// An engine that takes a fraction of the device (vLLM's 0.9) can be given more where its own
// guides say so (engine memory.fraction_raise: vLLM's recipes raise it to 0.95 "to maximize
// KVCache"): the budget at that fraction, unless the user chose a fraction (--memory-fraction).
std::string fraction_setting(const Deliberation& d, const Candidate& c, Memory& m, int count) {
  if (!c.engine || d.query.memory_fraction > 0 || m.budget.kind == "whole-device") return "";
  const json& mem = object_field(c.engine->data, "memory");
  double to = number_or(object_field(mem, "fraction_raise"), "to");
  if (to <= m.budget.fraction) return "";
  Budget raised = engine_budget(*d.query.accelerator, *d.query.target, count, c.engine, *d.query.model, m.weights_gb, to);
  if (raised.for_model_gb <= m.budget_gb) return "";
  m.budget = raised;
  m.budget_gb = raised.for_model_gb;
  return fmt::format("{} {:g}", mem.value("fraction_flag", std::string("fraction")), to);
}

// A bitrate the user chooses (EXL2/EXL3 -b): the decoder layers at the largest bits per
// weight in [min, max] (0.05 steps) that leaves the KV cache and the margin room, the head
// at its own bits, the embeddings in RAM or at 16 bits. `room_gb` is what weights may use.
// Under --objective speed the largest is not the answer: fewer bytes decode faster, and speed keeps 4 bits per weight or more
// (docs/ranking.md), so the bitrate is capped there (blind audit 39 #21: EXL3 at 5.86 bpw under --objective speed).
constexpr double kSpeedBitrate = 4.0;

void choose_target_bpw(const Record& f, const ModelSpec& model, double room_gb, Memory& m, bool speed) {
  const json& t = f.data["bpw"]["target"];
  double lo = t.value("min", 2.0), hi = t.value("max", 8.0), head_bits = t.value("head_bits", 16.0);
  if (speed) hi = std::clamp(kSpeedBitrate, lo, hi);
  bool embed_ram = t.value("embeddings_in_ram", false);
  double table = static_cast<double>(model.vocab) * model.hidden / 1e9;  // billions, one embedding table
  double head_gb = model.tied_embeddings ? 0 : table * head_bits / 8;
  double embed_gb = embed_ram ? 0 : table * 2;
  double body = std::max(0.0, model.params_b - table * (model.tied_embeddings ? 1 : 2));
  if (body <= 0) return;
  double b = std::floor((room_gb - head_gb - embed_gb) * 8 / body * 20) / 20;
  b = std::clamp(b, lo, hi);
  // Where quantizers publish a set of bitrates, the largest of those that fits: a file that exists.
  std::vector<double> published;
  for (const auto& v : array_field(t, "published"))
    if (v.is_number()) published.push_back(v.get<double>());
  std::sort(published.begin(), published.end());
  std::string chosen = speed ? fmt::format("--objective speed: the largest bitrate up to {:g} that fits", hi)
                              : fmt::format("the largest bitrate in {:g}-{:g} that fits", lo, hi);
  if (!published.empty()) {
    auto it = std::upper_bound(published.begin(), published.end(), b + 1e-9);
    b = it == published.begin() ? published.front() : *std::prev(it);
    chosen = fmt::format("the largest published bitrate ({:g}) that fits{}", fmt::join(published, ", "),
                         speed ? fmt::format(", up to {:g} under --objective speed", hi) : "");
  }
  m.weights_gb = body * b / 8 + head_gb + embed_gb;
  m.chosen_bpw = b;
  m.chosen_published = !published.empty();
  m.bpw = model.params_b > 0 ? m.weights_gb * 8 / model.params_b : b;
  m.bpw_source = fmt::format("chosen: -b {:.2f}, {} (head {:g} bits{})", b, chosen, head_bits, embed_ram ? ", embeddings in system RAM" : "");
}

// Part of the model in system RAM (engine `offload`, a discrete GPU): the plan, its
// forecast, and "offload" or "slow" (under --min-tok-s) in place of "no" or "tight".
void offload(const Deliberation& d, const Candidate& c, Memory& m) {
  PlacementInput in;
  in.model = &*d.query.model;
  in.weights_gb = m.weights_gb;
  in.kv_gb = m.kv_gb + m.state_gb;  // the recurrent state, like the KV cache, lives with its layer (llama-memory-recurrent.cpp dev_layer)
  in.bpw = m.bpw;
  in.embed_bpw = embedding_bpw(*c.format);
  in.head_bpw = head_bpw(*c.format);
  in.expert_bpw = d.query.model->gguf_expert_bpw > 0 && c.format->str("scheme") == "gguf" ? d.query.model->gguf_expert_bpw
                                                                                             : expert_bpw(*c.format);
  in.gpu_room_gb = m.budget_gb - m.margin_gb;
  in.gpus = std::max(1, m.parts);
  in.gpu_bandwidth_gbs = d.query.accelerator->data.value("memory_bandwidth_gbs", 0.0);
  in.context = d.query.context;
  in.engine = c.engine;
  std::string why_not;
  auto p = plan_placement(in, d.query.host, &why_not);
  if (!p) {
    if (!m.fits) m.notes.push_back(fmt::format("no offload plan: {}", why_not));
    return;
  }
  m.placement = p;
  m.fits = true;
  if (m.parts > 1)
    m.notes.push_back(fmt::format("the GPU side is split across the {} GPUs by layer (--split-mode layer){}; decode streams one GPU's layers "
                                  "at a time", m.parts,
                                  p->split.empty() ? std::string(", in proportion to their free memory; -ts to set it")
                                                   : fmt::format(": -ts {} gives each GPU a run of whole layers that fits it (the "
                                                                 "output layer on the last{})", fmt::join(p->split, ","),
                                                                 p->kind == "experts" ? "; the first layers, their experts in RAM, "
                                                                                        "are the light ones" : "")));
  m.decode_tok_s = p->decode_ceiling_tok_s;
  m.compute_tok_s = 0;
  forecast(d, c, m, true);
  double expected = m.forecast_tok_s > 0 ? m.forecast_tok_s : m.decode_tok_s;
  m.fit = expected < d.query.min_tok_s ? "slow" : "offload";
  m.notes.push_back(fmt::format("partial offload ({}): {:.1f} GB on the GPU, {:.1f} GB in system RAM ({}); KV cache {}",
                                p->kind == "experts" ? fmt::format("--n-cpu-moe {}: the experts of {} of {} layers in RAM",
                                                                   p->cpu_moe_layers, p->cpu_moe_layers, p->layers)
                                                     : fmt::format("-ngl {}: the output layer and {} of {} layers on the GPU",
                                                                   p->gpu_layers, p->gpu_layers - 1, p->layers),
                                p->vram_gb, p->ram_gb, d.query.host.source, p->kv_where));
  if (p->ram_tight_share > 0)
    m.notes.push_back(fmt::format("tight in RAM: {:.1f} GB of the host's {:.1f} GB leaves {:.1f} GB for the OS, the page cache the "
                                  "mapped weights are read from, and other programs (a comfortable plan leaves {:.1f}: {:g} GB and a "
                                  "tenth of the RAM)", p->ram_gb, d.query.host.ram_gb, d.query.host.ram_gb - p->ram_gb,
                                  d.query.host.ram_gb - d.query.host.comfortable_gb(), kOsReserveGb));
}

// A serving engine's fit holds how many sequences of the query's context. The engine takes all its
// budget beside the weights for its pool (vLLM's gpu_memory_utilization, SGLang's mem_fraction_static:
// the fraction less weights and the profiled peak), so the count it reports is that room over one
// sequence's cache. Whether a fit serves what was asked is read with qsel's headroom margin kept
// free, as every fit is: several sequences asked for (--concurrency, else --batch, at least 2 on
// datacenter parts) that the pool holds only inside the margin make the fit tight and short. One
// sequence is the plain fit's own question (tight already when it takes the margin). The engine pages
// its cache: the batch runs as far as the pool holds it, and the KV cache sized is what those
// sequences hold at the end of the context.
void serving_capacity(const Deliberation& d, const Candidate& c, Memory& m) {
  if (!m.fits || !paged(c) || m.kv_gb + m.state_gb <= 0) return;
  double per_kv = m.kv_gb, per_state = m.state_gb;  // one sequence of the context (size_layout)
  double per_sequence = per_kv + per_state;
  double room = m.budget_gb - m.weights_gb;
  int count = m.parts * m.layout.dp;
  auto held = [&](double gb) { return static_cast<int>(std::max(0.0, std::floor(gb / per_sequence))); };
  int per_replica = held(room);
  m.sequences = per_replica * m.layout.dp;
  m.sequences_kept = held(room - m.margin_gb) * m.layout.dp;
  m.running = std::clamp(d.query.batch, 1, std::max(1, per_replica));
  m.kv_gb = per_kv * m.running;
  m.state_gb = per_state * m.running;
  m.state_sequences = m.state_gb > 0 ? m.running : 0;
  m.total_gb = m.weights_gb + m.kv_gb + m.state_gb;
  if (m.running < d.query.batch)
    m.notes.push_back(fmt::format("at {} tokens each, the KV pool holds {} of the {} sequences of --batch; more run at once when "
                                  "requests are shorter (the engine pages its cache and preempts when the pool fills)",
                                  d.query.context, per_replica, d.query.batch));
  int want = d.query.serving_concurrency();
  if (d.query.concurrency > 0 || d.query.batch > 1) m.capacity_asked = want;
  if (want <= 1 || m.sequences_kept >= want) return;
  m.capacity_short = 1.0 - static_cast<double>(m.sequences_kept) / want;
  if (m.fit == "yes") m.fit = "tight";
  m.notes.push_back(fmt::format("the KV cache holds {} sequence{} of {} tokens on {} GPU{} ({} with the {:.1f} GB margin kept free; {} {}{}): "
                                "a tight fit for serving",
                                m.sequences, m.sequences == 1 ? "" : "s", d.query.context, count, count == 1 ? "" : "s",
                                m.sequences_kept, m.margin_gb,
                                d.query.concurrency > 0 || d.query.batch < want ? "--concurrency" : "--batch", want,
                                d.query.concurrency > 0 || d.query.batch >= want ? "" : ", the default here"));
}

// The engine's own library tag the candidate runs (releases): sized as its page shows it, since what the engine's
// build keeps at high precision is in the tag's file, not in the type's bits (sizing/memory.h, library_tag_gb).
void library_tag_size(const ModelSpec& model, const Candidate& c, Memory& m) {
  if (!c.engine || c.release.empty() || m.weights_gb <= 0 || model.params_b <= 0) return;
  for (const auto& r : model.releases) {
    if (r.repo != c.release || r.registry != c.engine->id || r.format != c.format->id || r.file_gb <= 0) continue;
    double tag = library_tag_gb(r.file_gb, m.weights_gb);
    if (std::fabs(tag - m.weights_gb) < 1e-9) return;
    // The bits stay the type's: what the tag keeps wider (embedding tables) is read, not quantized, so it sizes
    // the file, not the quality estimate.
    m.notes.push_back(fmt::format("{} is {:g} GB on {}'s library page, where {:.2f} bpw gives {:.1f} GB: sized as the tag ({:.2f} GB; "
                                  "its quality is the type's)", r.repo, r.file_gb, c.engine->id, m.bpw, m.weights_gb, tag));
    m.weights_gb = tag;
    return;
  }
}

Memory size_layout(const Deliberation& d, const Candidate& c, const std::string& kv_dtype, const Layout& layout) {
  const ModelSpec& model = *d.query.model;
  Memory m;
  m.layout = layout;
  int count = layout.gpus();
  m.parts = count;
  for (const auto& why : layout.why) m.notes.push_back(why);
  Bpw b = choose_bpw(*c.format, model, &d.graph);
  m.bpw = b.value;
  m.bpw_source = b.source;
  m.weights_gb = b.value > 0 ? weights_gb(*c.format, model, b) : 0;
  if (b.value > 0 && model.gguf_expert_bpw > 0 && c.format->str("scheme") == "gguf" && model.params_b > 0 &&
      std::fabs(m.weights_gb - model.params_b * b.value / 8) > 0.01 * m.weights_gb) {  // experts kept in their own type
    m.bpw = m.weights_gb * 8 / model.params_b;
    m.bpw_source = fmt::format("{:.2f} bpw over the file: every GGUF of {} keeps its experts in {}; the rest at {} ({:.2f} bpw, {})",
                               m.bpw, model.id, model.gguf_expert_type, c.format->id, b.value, b.source);
  }
  library_tag_size(model, c, m);
  // Pipeline stages take whole layers: with layers that do not divide by the stages, the heaviest stage's
  // GPUs hold more than an even share, and the engine can use no more on any stage than on that one
  // (vLLM sizes one KV pool for every stage). Sized as the heaviest stage, everywhere.
  if (!layout.layer_split && layout.pp > 1 && model.layers > 0 && m.weights_gb > 0) {
    int heavy = (model.layers + layout.pp - 1) / layout.pp;
    double share = static_cast<double>(heavy) * layout.pp / model.layers;
    if (share > 1 + 1e-9) {
      m.weights_gb *= share;
      m.notes.push_back(fmt::format("pipeline stages of up to {} of the {} layers: the heaviest stage's GPUs hold {:.1f}% more than an "
                                    "even share (embeddings and output head aside), and every stage is sized as it is",
                                    heavy, model.layers, (share - 1) * 100));
    }
  }
  m.kv_dtype = kv_dtype;
  double replicas = layout.layer_split ? 1 : kv_replication(c.engine, model, layout.tp);
  // A serving engine pages its KV cache: loading needs one sequence of the context; the batch is
  // the pool's to hold (serving_capacity). Other engines allocate the cache of every slot.
  m.running = paged(c) ? 1 : d.query.batch;
  bool full_window = c.engine && object_field(c.engine->data, "memory").value("kv_window", "window") == "full";
  m.kv_gb = kv_cache_gb(model, d.query.context, m.running, kv_bytes(d.graph, kv_dtype), !full_window) * replicas;
  if (full_window && model.sliding_window() && d.query.context > model.window)
    m.notes.push_back(fmt::format("{} sizes every layer's cache for the whole context: the {}-token sliding window saves no memory",
                                  c.engine->id, model.window));
  if (replicas > 1)
    m.notes.push_back(model.attention == "mla"
                          ? fmt::format("TP {} with MLA's one latent KV head: each GPU keeps the whole cache, so the KV cache is {:g}x",
                                        layout.tp, replicas)
                          : fmt::format("TP {} for {} KV heads: each GPU keeps a replica, so the KV cache is {:g}x", layout.tp,
                                        model.kv_heads, replicas));
  size_state(d, c, m);
  m.total_gb = m.weights_gb + m.kv_gb + m.state_gb;
  m.budget = engine_budget(*d.query.accelerator, *d.query.target, count, c.engine, model, m.weights_gb, d.query.memory_fraction);
  m.budget_gb = m.budget.for_model_gb;
  if (object_field(c.format->data, "bpw").contains("target")) {  // the user picks the bitrate: the largest that fits
    m.margin_gb = count * margin_per_part(d, c, m.budget.total_gb, &m.margin_source);
    choose_target_bpw(*c.format, model, m.budget_gb - m.margin_gb - m.kv_gb - m.state_gb, m, d.query.objective == "speed");
    m.total_gb = m.weights_gb + m.kv_gb + m.state_gb;
  }
  if (c.engine && object_field(c.engine->data, "memory").value("preallocates_context", false))
    m.notes.push_back(fmt::format("{} allocates the whole context's KV cache up front", c.engine->id));
  if (m.bpw <= 0) {
    m.notes.push_back(fmt::format("no bits-per-weight figure is recorded for {}: it cannot be sized", c.format->id));
    return m;
  }
  m.fits = m.budget.total_gb > 0 && m.total_gb <= m.budget_gb;
  if (!m.fits && m.budget.total_gb > 0) {
    m.setting = seqs_setting(d, c, m, count);
    m.fits = !m.setting.empty() && m.total_gb <= m.budget_gb;
    if (m.fits) m.notes.push_back(fmt::format("fits only with {} (the profiling peak shrinks with it): fewer concurrent "
                                              "sequences", m.setting));
  }
  if (!m.fits && m.budget.total_gb > 0) {  // then with the larger fraction the engine's guides allow, and fewer sequences if still short
    const Budget before = m.budget;
    const double before_gb = m.budget_gb;
    std::string raised = fraction_setting(d, c, m, count);
    if (!raised.empty() && m.total_gb > m.budget_gb) {
      std::string seqs = seqs_setting(d, c, m, count);
      if (!seqs.empty()) raised += " " + seqs;
    }
    m.fits = !raised.empty() && m.total_gb <= m.budget_gb;
    if (m.fits) {
      m.setting = raised;
      m.fraction_raised = true;
      m.notes.push_back(fmt::format("fits only with {}: {:.1f} GB of the GPU left to everything else on it (a desktop's share "
                                    "included)", raised, (m.budget.total_gb * (1 - m.budget.fraction))));
    } else {
      m.budget = before;
      m.budget_gb = before_gb;
      m.max_num_seqs = 0;
    }
  }
  m.margin_gb = count * margin_per_part(d, c, m.budget.total_gb, &m.margin_source);
  m.fit = !m.fits ? "no" : (m.setting.empty() && m.budget_gb - m.total_gb >= m.margin_gb) ? "yes" : "tight";
  serving_capacity(d, c, m);
  ceilings(d, c, m);
  // Part of the model in system RAM: one GPU, or several that split the GPU side by layer (engine offload.multi_gpu).
  bool split = c.engine && object_field(c.engine->data, "offload").value("multi_gpu", false);
  if (m.fit != "yes" && (count == 1 || split) && can_offload(c.engine, *d.query.accelerator)) offload(d, c, m);
  return m;
}

int fit_order(const Memory& m) {
  static const char* order[] = {"yes", "tight", "offload", "slow"};
  for (int i = 0; i < 4; ++i)
    if (m.fit == order[i]) return i;
  return 4;
}

// The layout the engine would run: of the options it accepts, the first that fits best; when none
// fits, the one with the most GPUs per replica (closest to fitting). The others' reasons stay as notes.
Memory memory_at(const Deliberation& d, const Candidate& c, const std::string& kv_dtype, int asked) {
  LayoutAsk ask{c.engine, c.format, d.query.accelerator, &*d.query.model, asked, d.query.nodes};
  std::vector<Layout> options = layout_options(ask);
  std::optional<Memory> best;
  for (const Layout& l : options) {
    Memory m = size_layout(d, c, kv_dtype, l);
    if (!best || fit_order(m) < fit_order(*best) || (fit_order(m) == 4 && fit_order(*best) == 4 && m.parts > best->parts)) best = std::move(m);
    if (fit_order(*best) == 0) break;
  }
  Memory& m = *best;
  const Layout& l = m.layout;
  if (asked > 1 && !l.layer_split && (l.tp != asked || l.ep))
    m.notes.insert(m.notes.begin(), fmt::format("layout on {} GPUs: {}{}", asked, l.describe(), l.flags.empty() ? "" : fmt::format(" ({})", l.flags)));
  return m;
}

// Tensor-parallel counts a user would try, in order.
constexpr int kCounts[] = {2, 4, 8, 16, 32, 64};

}  // namespace

std::string default_kv_dtype(const Query& q) { return q.kv_cache == "auto" ? "bf16" : q.kv_cache; }

Memory candidate_memory(const Deliberation& d, const Candidate& c, const std::string& kv_dtype) {
  return memory_at(d, c, kv_dtype, d.query.count);
}

int smallest_count(const Deliberation& d, const Candidate& c) {
  if (!c.memory || c.memory->bpw <= 0) return 0;
  for (int n : kCounts)
    if (n > d.query.count && memory_at(d, c, c.memory->kv_dtype, n).fits) return n;
  return 0;
}

MoreParts fewest_more_parts(const Deliberation& d, const std::function<bool(const Candidate&)>& eligible) {
  MoreParts best;
  if (!rule_util::takes_more_parts(d.query.accelerator)) return best;  // never more GPUs for a laptop, a Mac or a module
  for (const auto& c : d.candidates) {
    if (!eligible(c)) continue;
    int n = smallest_count(d, c);
    if (n > d.query.count && n <= 8 && (!best.candidate || n < best.count)) best = {n, &c};
  }
  return best;
}

void fit_hints(Deliberation& d) {
  if (!d.query.model || !d.query.accelerator || d.candidates.empty() || !d.candidates[0].memory || d.candidates[0].memory->fits) return;
  // A laptop, a Mac, an edge module: no more GPUs to add. Where the lead already says what would fit
  // (nothing_fits_lead: the fewest GPUs within a node, with that answer's #1), this note adds the
  // count per leading format, up to 64 parts over several nodes.
  if (!rule_util::takes_more_parts(d.query.accelerator)) return;
  std::vector<std::string> seen, hints;
  for (const auto& c : d.candidates) {
    if (rule_util::contains(seen, c.format->id) || seen.size() == 3) continue;
    seen.push_back(c.format->id);
    int n = smallest_count(d, c);
    hints.push_back(n ? fmt::format("{} on {}: --count {}", c.format->id, c.engine ? c.engine->id : "-", n)
                      : fmt::format("{} on {}: not within 64 parts", c.format->id, c.engine ? c.engine->id : "-"));
  }
  d.notes.push_back(fmt::format("nothing fits {} x {}; the smallest GPU count at which the leading candidates would (same "
                                "budget rules per part, laid out as each engine allows; tensor parallel within a node): {}",
                                d.query.count, d.query.accelerator->id, fmt::join(hints, "; ")));
}

void compute_memory(Deliberation& d) {
  if (!d.query.model || !d.query.accelerator) return;
  for (auto& c : d.candidates) {
    c.memory = memory_at(d, c, default_kv_dtype(d.query), d.query.count);
    // The engine's library tag keeps more than the type's bits (its page says how much): where it does not fit on
    // the GPU and the Hub file of the type the engine also loads does, that file is what to run (blind audit 32 #20:
    // Ollama's gemma3n:e4b is 7.5 GB on an 8 GB Jetson; unsloth's Q4_K_M of it is the type's 4.9).
    if (c.hub_release.empty() || c.hub_release == c.release || fit_order(*c.memory) <= 1) continue;
    Candidate hub = c;
    hub.release = c.hub_release;
    Memory m = memory_at(d, hub, default_kv_dtype(d.query), d.query.count);
    if (fit_order(m) >= fit_order(*c.memory)) continue;
    m.notes.push_back(fmt::format("{}, {}'s own tag of this type, does not fit here ({:.1f} GB of weights); {} holds the type at its bits",
                                  c.release, c.engine ? c.engine->id : "the engine", c.memory->weights_gb, c.hub_release));
    for (auto& why : c.why)  // releases named the tag as the checkpoint; it is the Hub file now
      if (why.size() > c.release.size() && why.compare(why.size() - c.release.size() - 2, std::string::npos, ": " + c.release) == 0)
        why.replace(why.size() - c.release.size(), std::string::npos, c.hub_release);
    c.release = c.hub_release;
    c.memory = std::move(m);
  }
}

}  // namespace qsel
