// Ranking, as the decision table of docs/ranking.md: first the eligibility steps
// (a candidate earlier in any of them ranks first, whatever its quality), then the
// objective's own step, then quality groups — candidates whose estimated costs (with
// the price of how they fit) differ by less than their band tie with the group's best —
// and inside a group the tie-breaks: what is known structurally, never a measurement.
// The tables below are the code of that page; tests/rules/ranking_test.cc reads both.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "qsel/core/json_number.h"
#include "qsel/rules/fit_price.h"
#include "qsel/rules/rule_support.h"
#include "qsel/rules/rules.h"

namespace qsel {
namespace {

constexpr double kTieBand = 1.2816;  // a difference inside the 80% band of the difference is a tie
constexpr double kEstimateStep = 1.5;  // inside a group, estimates within 1.5x of each other are one step

int path_rank(const std::string& p) { return p == "native" ? 0 : p == "dequant" ? 1 : 2; }
std::string fit_of(const Candidate& c) { return c.memory ? c.memory->fit : "yes"; }
bool offloaded(const Candidate& c) { return fit_of(c) == "offload" || fit_of(c) == "slow"; }

using rule_util::format_bits;
double sized_bits(const Candidate& c) { return c.memory && c.memory->bpw > 0 ? c.memory->bpw : format_bits(c); }

// Serving engines (continuous batching, paged KV) before local runners before libraries.
int role_rank(const Candidate& c) {
  static const std::vector<std::string> order = {"serving", "local", "library", "research"};
  std::string role = c.engine ? c.engine->str("role") : "";
  return static_cast<int>(std::find(order.begin(), order.end(), role) - order.begin());
}

// The KV-cache format record the candidate's cache is quantized to, or null for a 16-bit cache.
const Record* kv_cache_format(const Graph& g, const Candidate& c) {
  if (!c.memory || c.memory->kv_dtype.empty()) return nullptr;
  const Record* kv = g.find(c.memory->kv_dtype);
  return kv && kv->str("regime") == "kv-cache" ? kv : nullptr;
}

// 0: the publisher's own checkpoint; 1: a recorded third-party checkpoint; 2: none.
int release_rank(const Candidate& c) { return c.release.empty() ? 2 : c.release_official ? 0 : 1; }

// 0: the primary release or a repack of it; 1: the publisher's QAT release; 2: anything else.
int shipped_rank(const Deliberation& d, const Candidate& c) {
  if (!c.shipped || !d.query.model) return 2;
  const Release* primary = d.query.model->shipped();
  if (primary && primary->format == c.format->id) return 0;
  for (const Release& r : d.query.model->releases)
    if (r.format == c.format->id && r.repack) return 0;
  return 1;
}

// Decode tok/s the speed steps read: the calibrated forecast, else the ceiling.
double speed(const Candidate& c) { return c.memory ? decode_speed(*c.memory) : 0; }

// Forecasts (and footprints) closer than this to the best of their band are ties: the speed
// model's held-out median error is about this size (docs/performance-model.md).
constexpr double kObjectiveTie = 0.10;
// Past the batch a dequantizing kernel is built for (Marlin: "near-ideal ~4x speedups up to batchsizes of 16-32 tokens",
// its README), its step turns compute-bound on 16-bit tensor-core math the batch-1 calibration never saw, while a native
// path computes in the weights' own precision. The speed bands count such a forecast at the low end of the batch forecast's
// checked error (25%: compute_memory_test against published serving rates) so that a native path the forecast cannot
// tell from it is not put behind it (blind audit 34 #44: AWQ on Marlin at 2575 tok/s over NVIDIA's FP8 at 2196, batch 64 on
// a B200).
constexpr int kDequantBatch = 32;
constexpr double kBatchForecastError = 0.25;

long step_of(double v, double best) {
  if (v <= 0 || best <= 0) return std::numeric_limits<int>::max();
  return static_cast<long>(std::floor(std::log(best / v) / std::log(1.05) + 1e-9));
}

// What the steps that compare a candidate with the others compare it against: it fits, on a mainline path,
// uncontested, with no blocker.
bool fitting(const Candidate& c) {
  return rule_util::fits(c) && !rule_util::has_blocker(c) && rule_util::maturity_rank(c.maturity) == 0 && !c.disputed();
}

// What the steps read beyond one candidate: the query, and facts about the whole set.
struct Context {
  const Deliberation& d;
  const QualityModel& model;
  double reference_tok_s = 0;  // the fastest GPU-only answer (fit_price.h)
  bool serving_part = false;   // a datacenter or cloud part: the question is serving
  std::vector<const Candidate*> fitting;  // fits, mainline, uncontested, no blocker
  double group_best = 0;       // the lowest priced cost of the quality group being ordered
  std::vector<const Candidate*> group;  // the quality group being ordered
};

// A format the user quantizes themselves, when the group holds a published checkpoint it would
// wait for. Not one with more bits than a published member of its own family: within a family
// more bits are never worse (a recorded Q4_K_M does not make an unrecorded Q6_K wait).
long self_quantized(const Context& x, const Candidate& c) {
  // The engine's own quantization at load (vLLM's --quantization fp8) is a flag, not a file to make: it stands with the
  // published checkpoints here, and the hardware path decides next (blind audits 27 #48, 30 #18: a published 8-bit GPTQ
  // on Marlin ahead of native FP8 on Hopper and Blackwell).
  if (!c.release.empty() || !c.online_flags.empty()) return 0;
  bool published_below = std::any_of(x.group.begin(), x.group.end(), [&](const Candidate* o) {
    return !o->release.empty() && !c.quality.family.empty() && o->quality.family == c.quality.family && format_bits(*o) < format_bits(c);
  });
  return !published_below;
}

using KeyFn = long (*)(const Context&, const Candidate&);
struct Step {
  const char* name;
  KeyFn key;
};

// An emulated path while a native or dequant path of at least its weight bits fits.
long shadowed_emulated(const Context& x, const Candidate& c) {
  if (c.path != "emulated" || c.shipped) return 0;  // the release itself is never shadowed by a re-quantization of it
  return std::any_of(x.fitting.begin(), x.fitting.end(), [&](const Candidate* o) {
    return o != &c && o->path != "emulated" && format_bits(*o) >= format_bits(c) && !rule_util::broken(*o);
  });
}
// A cost in the broken range while a candidate outside it fits.
long shadowed_broken(const Context& x, const Candidate& c) {
  if (!rule_util::broken(c)) return 0;
  return std::any_of(x.fitting.begin(), x.fitting.end(), [&](const Candidate* o) { return !rule_util::broken(*o) && o->quality.known; });
}

// An unpublished re-quantization of a quantized release at about the release's size, while the release itself fits
// on the GPU: a second quantization nobody published or checked, whatever the objective. At about the same size
// (from three quarters of the release's bits per weight as sized to a band above them) what it can gain is the bytes
// the release keeps at 16 bits (gpt-oss's attention; a GGUF of gpt-oss keeps its experts in MXFP4 whatever its
// label), the publisher's choice, not a forecast's to overturn. A re-quantization to far fewer bits (INT4 of an FP8
// release) is a different trade-off, which the objective orders.
constexpr double kRequantBelow = 0.75;
long unpublished_requantization(const Context& x, const Candidate& c) {
  const Release* shipped = x.d.query.model ? x.d.query.model->shipped() : nullptr;
  if (!shipped || c.shipped || !c.release.empty() || is_baseline(*c.format)) return 0;
  const Record* released = x.d.graph.find(shipped->format);
  if (!released || is_baseline(*released)) return 0;
  // Within a family more bits are never worse: a published member with fewer bits does not put an unpublished one
  // with more behind it.
  bool published_below = std::any_of(x.fitting.begin(), x.fitting.end(), [&](const Candidate* o) {
    return !o->release.empty() && !o->shipped && !c.quality.family.empty() && o->quality.family == c.quality.family &&
           format_bits(*o) < format_bits(c);
  });
  if (published_below) return 0;
  return std::any_of(x.fitting.begin(), x.fitting.end(), [&](const Candidate* o) {
    double r = sized_bits(*o);
    return shipped_rank(x.d, *o) == 0 && (fit_of(*o) == "yes" || fit_of(*o) == "tight") && r > 0 &&
           sized_bits(c) >= kRequantBelow * r && sized_bits(c) <= r * (1 + kObjectiveTie);
  });
}

// A checkpoint the user must calibrate themselves for a serving engine (llm-compressor, AutoAWQ: hours of GPU time
// on the 16-bit weights, and a calibration set) while a published quantized checkpoint of its quality band or a better
// one fits on the GPU: experts serve the published one (blind audits 11 #27 and #36, 12 #32: an INT8 W8A8 of a 235B
// MoE to calibrate by hand over Qwen's own FP8). A local runner's file (llama-quantize, mlx_lm.convert) is minutes
// of work and is not held back.
// How many quality bands worse a published checkpoint may be and still hold back one to calibrate yourself: two
// (a published 4-bit AWQ, "small", over a hand-made INT8 W8A8, "lossless"; blind audits 14 #54 and 17 #10, #47, #55).
constexpr int kPublishedBandsWorse = 2;

long gguf_on_serving_engine(const Context& x, const Candidate& c);

long self_made_while_published(const Context& x, const Candidate& c) {
  if (!c.engine || c.engine->str("role") != "serving" || c.shipped || !c.release.empty() || !c.online_flags.empty() ||
      is_baseline(*c.format) || !c.quality.known || c.format->str("scheme") == "gguf")  // a GGUF file is llama-quantize's minutes
    return 0;
  int band = quality_band_rank(quality_band(c.quality.total()));
  const std::string& objective = x.d.query.objective;
  // x.fitting holds only fitting() candidates: mainline, uncontested, with no blocker.
  return std::any_of(x.fitting.begin(), x.fitting.end(), [&](const Candidate* o) {
    if (o == &c || (o->release.empty() && !o->shipped && o->online_flags.empty()) || is_baseline(*o->format) || !o->quality.known ||
        !o->engine || o->engine->str("role") != "serving" || (fit_of(*o) != "yes" && fit_of(*o) != "tight") ||
        quality_band_rank(quality_band(o->quality.total())) > band + kPublishedBandsWorse)
      return false;
    // A GGUF file on a serving engine waits for the engine's own formats (step 5): it holds none of them back.
    if (gguf_on_serving_engine(x, *o)) return false;
    // An emulated path waits for a native or dequant one of at least its bits (step 11): it holds nothing back from one.
    if (o->path == "emulated" && c.path != "emulated" && format_bits(c) >= format_bits(*o)) return false;
    // Within a family more bits are never worse: a published member with fewer bits does not hold back one with more.
    if (!c.quality.family.empty() && o->quality.family == c.quality.family && format_bits(*o) < format_bits(c)) return false;
    // Under speed or memory the published one must also serve the objective as well (within the forecast's error):
    // a self-made NVFP4 on Blackwell is the speed answer even where a published FP8 is better.
    if (objective == "speed") return speed(*o) * (1 + kObjectiveTie) >= speed(c);
    if (objective == "memory")
      return o->memory && c.memory && o->memory->total_gb <= c.memory->total_gb * (1 + kObjectiveTie);
    return true;
  });
}

// A GGUF file in a serving engine (vLLM, SGLang) while a checkpoint format of the engine's own fits on it: GGUF is the
// local runners' format, and a serving engine runs it through llama.cpp's kernels ported in, tuned for one request (in one
// serving engine a Q4_K_M prefills about 9x slower than AWQ: issue 35987 of its tracker, docs/ranking.md), so an expert
// serves the engine's own formats and takes its GGUF path only where nothing else fits (blind audit 22 #60).
long gguf_on_serving_engine(const Context& x, const Candidate& c) {
  if (!c.engine || c.engine->str("role") != "serving" || c.format->str("scheme") != "gguf") return 0;
  return std::any_of(x.fitting.begin(), x.fitting.end(), [&](const Candidate* o) {
    return o->engine == c.engine && o->format->str("scheme") != "gguf" && (fit_of(*o) == "yes" || fit_of(*o) == "tight") &&
           !rule_util::broken(*o);
  });
}

// The eligibility steps, in order (docs/ranking.md, "Eligibility").
const std::vector<Step>& eligibility_steps() {
  static const std::vector<Step> steps = {
      {"fits (comfortably, tight, or partly in system RAM)", [](const Context&, const Candidate& c) -> long { return !rule_util::fits(c); }},
      {"no unconditional blocker", [](const Context&, const Candidate& c) -> long { return rule_util::has_blocker(c); }},
      {"a mainline serving path (then plugin, unlisted, experimental, deprecated)",
       [](const Context&, const Candidate& c) -> long { return rule_util::maturity_rank(c.maturity); }},
      {"--portable's format, when asked (Rule 3)",
       [](const Context& x, const Candidate& c) -> long { return x.d.query.portable ? c.rank_tier : 0; }},
      {"on a serving engine, not a GGUF file while one of the engine's own checkpoint formats fits", gguf_on_serving_engine},
      {"objective quality: a quantized release (or a repack of it) that fits comfortably on the GPU; the checkpoint the user named, "
       "when it fits on the GPU at all",
       [](const Context& x, const Candidate& c) -> long {
         const Release* shipped = x.d.query.model ? x.d.query.model->shipped() : nullptr;
         bool named = shipped && shipped->local && (fit_of(c) == "yes" || fit_of(c) == "tight");
         bool promoted = x.d.query.objective == "quality" && !is_baseline(*c.format) && shipped_rank(x.d, c) == 0 &&
                         (fit_of(c) == "yes" || named);
         return !promoted;
       }},
      {"not an unpublished re-quantization of a quantized release at about its size, while the release fits on the GPU",
       unpublished_requantization},
      {"not a checkpoint to calibrate yourself for a serving engine, while a published one at most two quality bands worse "
       "fits on the GPU",
       self_made_while_published},
      {"uncontested (no record disputes that it runs here); under --objective speed, inside a speed band instead",
       [](const Context& x, const Candidate& c) -> long { return x.d.query.objective != "speed" && c.disputed(); }},
      {"a serving engine's own checkpoint format, on a datacenter or cloud part",
       [](const Context& x, const Candidate& c) -> long {
         // A GGUF file is the local runners' format wherever it runs: in a serving engine it is no serving answer that
         // outranks llama.cpp's (a broken Q2 on two A100s in a serving engine over a 2.4-bit GGUF partly in RAM).
         return x.serving_part && (role_rank(c) > 0 || c.format->str("scheme") == "gguf");
       }},
      {"not emulated while a native or dequant path of at least its weight bits fits", shadowed_emulated},
      {"not in the broken range while something outside it fits", shadowed_broken},
      {"not slow (an offload plan forecast under --min-tok-s)", [](const Context&, const Candidate& c) -> long { return fit_of(c) == "slow"; }},
  };
  return steps;
}

// The tie-breaks inside a quality group, in order (docs/ranking.md, "Inside a group").
const std::vector<Step>& tie_break_steps() {
  static const std::vector<Step> steps = {
      // Under speed a contested path (the engine's code serves it, its docs table does not) is not held behind a clean one
      // at half its speed: the code is the better source (blind audit 21 #14: BF16 at ~29 tok/s over the AWQ/GPTQ vLLM's
      // ROCm code serves at ~65 on Strix Halo). Inside the band it waits; under the other objectives eligibility did this.
      {"uncontested before contested", [](const Context&, const Candidate& c) -> long { return c.disputed(); }},
      {"a serving fit whose KV cache holds the sequences --concurrency asks for, then by how far short it falls, in halvings",
       [](const Context&, const Candidate& c) -> long {
         if (!c.memory || c.memory->capacity_short <= 0) return 0;
         double held = 1 - c.memory->capacity_short;  // the share of the sequences asked for that the pool holds
         return held <= 0 ? 64 : 1 + static_cast<long>(std::floor(std::log2(1 / held)));
       }},
      {"the format the model ships in (the release or a repack of it, then a QAT release); the unquantized model only on the GPU",
       [](const Context& x, const Candidate& c) -> long {
         // Partly in system RAM the 16-bit model is an offload plan like any other, its price the speed it gives up: it is
         // not put first for being the publisher's weights (blind audit 16 #27: BF16 at 6 tok/s over Q6_K at 22 on 6 GB).
         // Nor with the 8-bit KV cache Rule 6 chose to make it fit: its cache is then quantized, and a lossless
         // format of its group with the 16-bit cache is the less changed model (blind audit 17 #35: BF16 + FP8 KV
         // at batch 128 over the official FP8 release).
         bool changed = offloaded(c) || (x.d.query.kv_cache == "auto" && kv_cache_format(x.d.graph, c));
         return is_baseline(*c.format) && changed ? 2 : shipped_rank(x.d, c);
       }},
      {"4 bits per weight or more", [](const Context&, const Candidate& c) -> long { return format_bits(c) > 0 && format_bits(c) < 4; }},
      {"comfortable before tight", [](const Context&, const Candidate& c) -> long { return fit_of(c) == "tight"; }},
      {"on the GPU before partly in system RAM", [](const Context&, const Candidate& c) -> long { return offloaded(c); }},
      {"objective speed or a batch: native before dequant before emulated",
       [](const Context& x, const Candidate& c) -> long {
         return x.d.query.objective == "speed" || x.d.query.batch > 1 ? path_rank(c.path) : 0;
       }},
      {"a published checkpoint before a format you quantize yourself (not one with more bits than a published member of its family)",
       self_quantized},
      {"the lower estimate with the price of its fit, in steps of 1.5x from the group's best (within a family: more bits); "
       "every estimate in the lossless band is one step",
       [](const Context& x, const Candidate& c) -> long {
         if (!c.quality.known) return std::numeric_limits<int>::max();
         if (c.priced_cost <= 0 || x.group_best <= 0) return 0;
         // Under the lossless band a ratio is noise, not a family-level difference: a self-made 8-bit GPTQ whose estimate is
         // its family's prior alone (0.00019) does not outrank FP8 measured on many models (0.00034); the hardware path
         // decides next (a sweep of self-made #1 answers: GPTQ INT8 on Marlin over native FP8 on an L40S in SGLang).
         if (quality_band(c.priced_cost) == "lossless") return 0;
         return static_cast<long>(std::floor(std::log(c.priced_cost / x.group_best) / std::log(kEstimateStep) + 1e-9));
       }},
      {"native before dequant before emulated",
       [](const Context&, const Candidate& c) -> long { return path_rank(c.path); }},
      {"no KV-cache quantization before an 8-bit cache Rule 6 chose",
       [](const Context& x, const Candidate& c) -> long { return x.d.query.kv_cache == "auto" && kv_cache_format(x.d.graph, c); }},
      {"the rules' preference (Rule 3: NVFP4 before MXFP4 on Blackwell)", [](const Context&, const Candidate& c) -> long { return c.rank_tier; }},
      {"a serving engine, then a local runner, then a library", [](const Context&, const Candidate& c) -> long { return role_rank(c); }},
      {"a published checkpoint (the publisher's own first)", [](const Context&, const Candidate& c) -> long { return release_rank(c); }},
      {"the engine's first-choice kernel before its fallback", [](const Context&, const Candidate& c) -> long { return c.fallback_kernel; }},
      {"objective speed: the faster decode forecast",
       [](const Context& x, const Candidate& c) -> long { return x.d.query.objective == "speed" && speed(c) > 0 ? -std::lround(speed(c) * 100) : 0; }},
      {"the lower estimate with the price of its fit (within a family: more bits)",
       [](const Context&, const Candidate& c) -> long {
         if (!c.quality.known) return std::numeric_limits<long>::max();
         return c.priced_cost > 0 ? std::lround(std::log(c.priced_cost) * 1e6) : std::numeric_limits<long>::min();
       }},
      {"more bits per weight (estimates equal: one raised to a member of its family with more bits)",
       [](const Context&, const Candidate& c) -> long { return -std::lround(sized_bits(c) * 100); }},
      {"an estimate its family's rows place before one its prior alone places",
       [](const Context&, const Candidate& c) -> long { return c.quality.family_rows == 0; }},
      {"the faster decode forecast (5% steps)",
       [](const Context&, const Candidate& c) -> long { return speed(c) > 0 ? -step_of(1, speed(c)) : 0; }},
      {"a recorded kernel", [](const Context&, const Candidate& c) -> long { return c.engine && !c.kernel && !is_baseline(*c.format); }},
      {"the better evidence grade",
       [](const Context&, const Candidate& c) -> long { return rule_util::grade_rank(c.evidence_grade.substr(0, c.evidence_grade.find(' '))); }},
  };
  return steps;
}

std::vector<long> keys(const Context& x, const Candidate& c, const std::vector<Step>& steps) {
  std::vector<long> out;
  out.reserve(steps.size());
  for (const Step& s : steps) out.push_back(s.key(x, c));
  return out;
}

// The price of how a candidate fits, on the quality scale (fit_price.h).
double price_of(const Candidate& c, double reference_tok_s) {
  if (!c.memory) return 0;
  const Memory& m = *c.memory;
  return (offloaded(c) ? offload_cost(m, reference_tok_s) : 0) + (m.fit == "tight" ? tight_cost(m) : 0);
}

struct Entry {
  Candidate c;
  std::vector<long> head;  // eligibility, then the objective's own step
  double price = 0, priced = 0;
  bool exact_reference = false, known = false;
};

// An 8-bit format reads half the bytes of a 16-bit one: where bandwidth decides it runs at least this
// much faster, and a gain this size is one a user feels (the estimates' own step, kEstimateStep).
constexpr double kSlowGain = 1.5;

// The unquantized model leads its own first group, except where it is slow: below a comfortable decode
// speed, and with a plan whose estimate is lossless running at least kSlowGain times faster on the GPU
// alone, it is priced as a slow offload plan is, a halving cost per halving of speed against the
// fastest such plan. At 2-5 tok/s that halving is what a user feels, at a cost no benchmark tells apart
// (docs/ranking.md, "Quality groups"). Partly in system RAM it already pays an offload plan's price; the
// lossless plans it is weighed against may then be partly in RAM too, each paying its own, and what is
// added is the halvings of speed it gives up to one of them (blind audit 32 #22: BF16 with 45 of 48
// layers' experts in RAM at ~17 tok/s over Q8_0's at ~31).
void price_slow_reference(std::vector<Entry>& entries, const std::string& objective) {
  if (objective != "quality") return;
  for (Entry& r : entries) {
    if (!r.c.quality.reference || !is_baseline(*r.c.format) || !r.c.memory) continue;
    bool placed = r.c.memory->placement.has_value();
    if (!placed && !r.exact_reference) continue;
    double slow = speed(r.c);
    // A local runner serves one reader at batch 1, where the bytes read decide the speed at any speed: there the
    // 16-bit file is priced against a lossless one that runs kSlowGain faster whatever the speed (llama.cpp's Q8_0
    // over its BF16); a serving engine keeps its unquantized model while it is comfortable.
    bool local = r.c.engine && r.c.engine->str("role") == "local";
    if (slow <= 0 || (slow >= comfortable_tok_s() && !local)) continue;
    // On a local runner the gain is read at the start of the context too, where decode reads the weights alone: a long
    // --context's KV cache, read by both, hides the 8-bit file's half of the bytes in the end-of-context forecast
    // (blind audit 18 #33: BF16 at 12 tok/s over Q8_0 at 14 at 128k, 61 GB against 32.5). Partly in RAM the speed is
    // the RAM side's, so the forecast alone.
    auto gain = [&](const Entry& e) {
      double g = speed(e.c) / slow;
      if (local && !placed && r.c.memory->weights_gb > 0 && e.c.memory->weights_gb > 0) g = std::max(g, r.c.memory->weights_gb / e.c.memory->weights_gb);
      return g;
    };
    auto lossless = [&](const Entry& e) {
      if (!e.c.memory || e.c.quality.reference || !e.known) return false;
      if (!e.c.memory->placement) return quality_band(e.priced) == "lossless";
      return placed && quality_band(e.c.quality.total()) == "lossless";  // both pay the offload price
    };
    double best = 0;
    for (const Entry& e : entries)
      if (&e != &r && e.head == r.head && lossless(e) && gain(e) >= kSlowGain) best = std::max(best, gain(e));
    if (best <= 0) continue;
    r.price += halving_cost() * std::log2(best);
    r.priced = r.c.quality.total() + r.price;
    r.c.priced_cost = r.priced;
    r.exact_reference = false;
    r.c.why.push_back(slow < comfortable_tok_s()
                          ? fmt::format("slow — ~{:.0f} tok/s unquantized, under the {:.0f} tok/s a reader does not wait on, where a "
                                        "lossless format runs {:.1f}x as fast: priced {:.2g} on the quality scale, as a slow plan is "
                                        "(docs/ranking.md)", slow, comfortable_tok_s(), best, r.priced)
                      : placed
                          ? fmt::format("slower — ~{:.0f} tok/s unquantized partly in system RAM on a local runner, where a lossless "
                                        "format runs {:.1f}x as fast: priced {:.2g} on the quality scale, as a slower plan is "
                                        "(docs/ranking.md)", slow, best, r.priced)
                          : fmt::format("slower — ~{:.0f} tok/s unquantized on a local runner, where a lossless format runs {:.1f}x as "
                                        "fast (reading its weights alone, at the start of the context): priced {:.2g} on the quality "
                                        "scale, as a slower plan is (docs/ranking.md)", slow, best, r.priced));
  }
}

// The unquantized model that holds what was asked only with the 8-bit KV cache Rule 6 chose is no longer the
// model unchanged: where a lossless published checkpoint (a release, or the engine's own quantization at load)
// holds it comfortably with the 16-bit cache, the reference is priced as that checkpoint is and the tie-breaks
// decide, the last of them "no KV-cache quantization" (blind audit 17 #35: BF16 + FP8 KV at batch 128 on 8 x H100
// over the official FP8 release).
void price_kv8_reference(std::vector<Entry>& entries, const Graph& g, const std::string& kv_cache) {
  if (kv_cache != "auto") return;
  for (Entry& r : entries) {
    if (!r.exact_reference || !is_baseline(*r.c.format) || !kv_cache_format(g, r.c) || !r.c.engine ||
        r.c.engine->str("role") != "serving")
      continue;
    double peer = 0;
    for (const Entry& e : entries)
      if (&e != &r && e.head == r.head && e.known && !e.exact_reference && !kv_cache_format(g, e.c) && fit_of(e.c) == "yes" &&
          quality_band(e.priced) == "lossless" && (!e.c.release.empty() || e.c.shipped || !e.c.online_flags.empty()))
        peer = peer > 0 ? std::min(peer, e.priced) : e.priced;
    if (peer <= 0) continue;
    r.exact_reference = false;
    r.price = r.priced = peer;
    r.c.priced_cost = peer;
    r.c.why.push_back(fmt::format("the unquantized weights hold what was asked only with an 8-bit KV cache, where a lossless published "
                                  "checkpoint holds it with the 16-bit cache: priced as that checkpoint is ({:.2g}), the tie-breaks "
                                  "decide (docs/ranking.md)", peer));
  }
}

// Whether `b` ties with the group leader `a` on quality.
bool ties(const QualityModel& m, const Entry& a, const Entry& b) {
  if (a.exact_reference || b.exact_reference) return a.exact_reference && b.exact_reference;
  if (!a.known || !b.known) return !a.known && !b.known;
  double diff = std::fabs(std::log(a.priced) - std::log(b.priced));
  double sd = m.priced_difference_sd(a.c.quality.estimate, a.price + a.c.quality.kv_cost, b.c.quality.estimate, b.price + b.c.quality.kv_cost);
  return diff <= kTieBand * sd + 1e-12;
}

std::string objective_statement(const std::string& objective) {
  std::vector<std::string> parts;
  for (const Step& s : eligibility_steps()) parts.push_back(s.name);
  if (objective == "speed") parts.push_back("4 bits or more; the decode forecast at the batch asked for, in bands within 10% of the fastest");
  if (objective == "memory") parts.push_back("the smallest total memory, in bands within 10% of the smallest");
  parts.push_back("quality groups (the estimate plus the price of a tight fit, of part in system RAM and of an 8-bit KV cache; "
                  "what lies inside the band of the difference ties)");
  std::vector<std::string> ties;
  for (const Step& s : tie_break_steps()) ties.push_back(s.name);
  return fmt::format("objective {}: {}; inside a group: {} (docs/ranking.md)", objective, fmt::join(parts, ", "), fmt::join(ties, ", "));
}

// Batch 1 decode reads every weight once per token: bandwidth decides. With a
// large enough batch the same bytes serve many tokens and compute decides.
void regime_note(Deliberation& d) {
  if (d.candidates.empty() || !d.candidates[0].memory) return;
  const Memory& m = *d.candidates[0].memory;
  if (m.decode_tok_s <= 0) return;
  bool compute = m.compute_tok_s > 0 && m.compute_tok_s < m.decode_tok_s;
  d.notes.push_back(compute ? fmt::format("regime — at batch {} decode is compute-bound on #1 (compute ceiling ~{:.0f} tok/s "
                                          "below the bandwidth ceiling ~{:.0f}): the native low-precision path is what speeds "
                                          "it up", d.query.batch, m.compute_tok_s, m.decode_tok_s)
                            : fmt::format("regime — at batch {} decode is bandwidth-bound on #1 (bandwidth ceiling ~{:.0f} "
                                          "tok/s{}): bytes read per token decide, not the tensor-core path",
                                          d.query.batch, m.decode_tok_s,
                                          m.compute_tok_s > 0 ? fmt::format(", compute ~{:.0f}", m.compute_tok_s) : ""));
}

// Facts that record the accuracy cost of a regime (cited on sub-4-bit candidates).
std::vector<std::string> cost_facts(const Graph& g, const std::string& regime) {
  std::vector<std::string> out;
  for (const Record* f : g.of_kind(Kind::Fact))
    for (const auto& r : f->strings("/applies/regimes"))
      if (r == regime) out.push_back(f->id);
  return out;
}

// The best grade among the format's quality evidence: its quality_delta records and its rows.
std::string evidence_grade(const Graph& g, const Record& f) {
  std::map<int, int> counts;
  for (const auto& id : f.strings("/quality_delta"))
    if (const Record* b = g.find(id)) counts[rule_util::grade_rank(b->str("grade"))]++;
  for (const Record* b : quality_rows(g, f.id))
    if (!rule_util::contains(f.strings("/quality_delta"), b->id)) counts[rule_util::grade_rank(b->str("grade"))]++;
  if (counts.empty()) return "none recorded";
  static const char* names[] = {"controlled", "paper", "vendor-claim", "derived", "anecdotal", "unverified", "ungraded"};
  return fmt::format("{} ({})", names[counts.begin()->first], counts.begin()->second);
}

bool is_qat_release(const Deliberation& d, const Candidate& c) {
  if (!c.shipped || !d.query.model) return false;
  for (const Release& r : d.query.model->releases)
    if (r.format == c.format->id && r.qat) return true;
  return false;
}

void estimate_quality(Deliberation& d, Candidate& c) {
  const ModelSpec* model = d.query.model ? &*d.query.model : nullptr;
  c.evidence_grade = evidence_grade(d.graph, *c.format);
  bool qat = is_qat_release(d, c);
  c.quality = quality_cost(d.graph, quality_model_of(d), *c.format, c.engine, model, c.memory ? c.memory->bpw : 0, qat);
  // The model as released is its users' reference; a QAT release is the publisher's own 4-bit
  // file, not the model: it keeps its family's estimate (it loses part of what post-training loses).
  if (c.shipped) mark_as_released(c.quality, c.format->id, qat);
  if (c.shipped && !qat) {  // an accuracy trap of quantizing to the format is not one of the model as released
    auto accuracy = [](const Warning& w) { return w.effect == "accuracy"; };
    if (std::any_of(c.warnings.begin(), c.warnings.end(), accuracy))
      c.why.push_back(fmt::format("the model as released in {}: warnings about the accuracy cost of quantizing to it do not apply",
                                  c.format->id));
    c.warnings.erase(std::remove_if(c.warnings.begin(), c.warnings.end(), accuracy), c.warnings.end());
  }
  if (const Record* kv = kv_cache_format(d.graph, c)) add_kv_cache_cost(d.graph, *kv, c.quality);
  for (const auto& id : c.quality.here) rule_util::add_unique(c.evidence, id);
  if (!c.quality.family.empty()) rule_util::add_unique(c.evidence, c.quality.family);
  double b = format_bits(c);
  if (b <= 0 || b >= 4) return;
  auto facts = cost_facts(d.graph, c.format->str("regime"));
  c.why.push_back(fmt::format("below 4 bits the recorded accuracy cost jumps{}", facts.empty() ? "" : fmt::format(" [{}]", fmt::join(facts, ", "))));
  for (const auto& f : facts) rule_util::add_unique(c.evidence, f);
}

// Within a family more bits are never worse: a row measured on this model can lower one
// member's estimate, never below that of a member with more bits. Costs are raised, from the
// most bits down, to the highest estimate above them.
void monotone_in_bits(std::vector<Candidate>& cs) {
  std::map<std::string, std::vector<Candidate*>> by_family;
  for (auto& c : cs)
    if (c.quality.known && !c.quality.reference && !c.quality.family.empty()) by_family[c.quality.family].push_back(&c);
  for (auto& [family, members] : by_family) {
    std::stable_sort(members.begin(), members.end(), [](const Candidate* a, const Candidate* b) { return sized_bits(*a) > sized_bits(*b); });
    const Candidate* above = nullptr;  // the highest estimate among members with strictly more bits
    for (std::size_t i = 0; i < members.size();) {
      std::size_t j = i;
      while (j < members.size() && sized_bits(*members[j]) == sized_bits(*members[i])) ++j;
      if (above)
        for (std::size_t k = i; k < j; ++k) raise_to(members[k]->quality, above->quality.estimate.ln_cost, above->format->id);
      for (std::size_t k = i; k < j; ++k)
        if (!above || members[k]->quality.estimate.ln_cost > above->quality.estimate.ln_cost) above = members[k];
      i = j;
    }
  }
}

}  // namespace

std::vector<std::string> ranking_step_names(const std::string& part) {
  std::vector<std::string> out;
  for (const Step& s : part == "eligibility" ? eligibility_steps() : tie_break_steps()) out.push_back(s.name);
  return out;
}

void rank_candidates(Deliberation& d) {
  for (auto& c : d.candidates) estimate_quality(d, c);
  monotone_in_bits(d.candidates);
  const std::string& objective = d.query.objective;
  const int batch = d.query.batch;
  d.notes.push_back("ranking — " + objective_statement(objective));
  Context x{d, quality_model_of(d)};
  x.reference_tok_s = gpu_reference_tok_s(d.candidates);
  std::string market = d.query.accelerator ? d.query.accelerator->str("market") : "";
  x.serving_part = market == "datacenter" || market == "cloud";
  for (const auto& c : d.candidates)
    if (fitting(c)) x.fitting.push_back(&c);

  // Every key is read before any candidate moves into its entry: the steps compare a candidate with the others
  // (x.fitting points into d.candidates).
  std::vector<std::vector<long>> heads;
  heads.reserve(d.candidates.size());
  for (const auto& c : d.candidates) heads.push_back(keys(x, c, eligibility_steps()));
  std::vector<Entry> entries;
  entries.reserve(d.candidates.size());
  for (std::size_t i = 0; i < d.candidates.size(); ++i) {
    Candidate& c = d.candidates[i];
    Entry e;
    e.head = std::move(heads[i]);
    if (objective == "speed") e.head.push_back(format_bits(c) > 0 && format_bits(c) < 4);
    e.price = price_of(c, x.reference_tok_s);
    e.known = c.quality.known;
    e.priced = c.quality.total() + e.price;
    c.priced_cost = e.priced;
    e.exact_reference = c.quality.reference && e.priced <= 0;
    e.c = std::move(c);
    entries.push_back(std::move(e));
  }
  x.fitting.clear();  // the candidates now live in the entries
  for (const Entry& e : entries)
    if (fitting(e.c)) x.fitting.push_back(&e.c);
  price_slow_reference(entries, objective);
  price_kv8_reference(entries, d.graph, d.query.kv_cache);
  // The objective's own step, inside each eligibility class: bands led by the fastest (smallest)
  // candidate left, each holding what lies within the forecast's error of its leader — what the
  // model cannot tell apart is a tie, and quality and structure decide inside it.
  if (objective == "speed" || objective == "memory") {
    auto value = [&](const Entry& e) {
      if (objective != "speed") return e.c.memory ? e.c.memory->total_gb : 0;
      return batch > kDequantBatch && e.c.path == "dequant" ? speed(e.c) / (1 + kBatchForecastError) : speed(e.c);
    };
    std::map<std::vector<long>, std::vector<Entry*>> classes;
    for (Entry& e : entries) classes[e.head].push_back(&e);
    for (auto& [head, members] : classes) {
      std::stable_sort(members.begin(), members.end(), [&](const Entry* a, const Entry* b) {
        double va = value(*a), vb = value(*b);
        if ((va > 0) != (vb > 0)) return va > 0;
        return objective == "speed" ? va > vb : va < vb;
      });
      long band = -1;
      double leader = 0;
      for (Entry* e : members) {
        double v = value(*e);
        if (v <= 0) {
          e->head.push_back(std::numeric_limits<int>::max());
          continue;
        }
        bool within = band >= 0 && (objective == "speed" ? v * (1 + kObjectiveTie) >= leader : v <= leader * (1 + kObjectiveTie));
        if (!within) ++band, leader = v;
        e->head.push_back(band);
        // Inside a band, under speed, 16-bit weights wait for a quantized candidate: they read at least
        // twice its bytes, which the forecast's band can hide (a tensor-parallel step's fixed costs), not undo.
        if (objective == "speed") e->head.push_back(is_baseline(*e->c.format));
        // And at a batch, native before dequant before emulated: decoding many sequences at once, a step's compute is what
        // the hardware path buys (FP4 tensor cores against a dequantizing FP16 kernel built for small batches), which the
        // bandwidth-calibrated forecast cannot tell apart inside its band (blind audit 34 #44: AWQ on Marlin over NVFP4
        // native at batch 64 on a B200, 2575 against 2536 tok/s forecast).
        if (objective == "speed" && batch > 1) e->head.push_back(path_rank(e->c.path));
      }
    }
  }
  // Classes in order; inside each, quality groups by leader; inside a group, the tie-breaks.
  std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    if (a.head != b.head) return a.head < b.head;
    if (a.exact_reference != b.exact_reference) return a.exact_reference;
    if (a.known != b.known) return a.known;
    return a.priced < b.priced;
  });
  std::vector<Candidate> ranked;
  ranked.reserve(entries.size());
  std::vector<bool> placed(entries.size(), false);
  const QualityModel& m = quality_model_of(d);
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (placed[i]) continue;
    std::vector<std::size_t> group = {i};
    for (std::size_t j = i + 1; j < entries.size() && entries[j].head == entries[i].head; ++j)
      if (!placed[j] && ties(m, entries[i], entries[j])) group.push_back(j);
    std::vector<std::pair<std::vector<long>, std::size_t>> order;
    x.group_best = entries[i].priced;
    x.group.clear();
    for (std::size_t k : group) x.group.push_back(&entries[k].c);
    for (std::size_t k : group) {
      placed[k] = true;
      order.push_back({keys(x, entries[k].c, tie_break_steps()), k});
    }
    std::stable_sort(order.begin(), order.end(), [&](const auto& a, const auto& b) {
      if (a.first != b.first) return a.first < b.first;
      const Candidate& ca = entries[a.second].c;
      const Candidate& cb = entries[b.second].c;
      return std::make_pair(ca.format->id, ca.engine ? ca.engine->id : std::string()) <
             std::make_pair(cb.format->id, cb.engine ? cb.engine->id : std::string());
    });
    for (const auto& [k, idx] : order) {
      spdlog::debug("rank {}: {} on {}: group of {}, estimate {:.4g}, priced {:.4g}", ranked.size() + 1, entries[idx].c.format->id,
                    entries[idx].c.engine ? entries[idx].c.engine->id : "-", entries[i].c.format->id, entries[idx].c.quality.total(),
                    entries[idx].priced);
      ranked.push_back(std::move(entries[idx].c));
    }
  }
  d.candidates = std::move(ranked);
  regime_note(d);
}

}  // namespace qsel
