// Rule 6 — 8-bit KV cache: widely deployed, mostly unmeasured. When the 16-bit
// cache does not fit on the GPU, or fits only by moving part of the model to
// system RAM, offer an 8-bit KV format the engine serves, as a capacity measure
// with its measured accuracy delta where a record has one — never with
// sliding-window attention plus speculative decoding. Under --objective speed,
// every candidate whose serving engine serves one gets it, so all compare at one cache.
#include <fmt/format.h>

#include "qsel/core/text.h"
#include "qsel/core/json_number.h"
#include "qsel/rules/candidate_memory.h"
#include "qsel/rules/launch.h"
#include "qsel/rules/rules.h"
#include "qsel/rules/rule_support.h"

namespace qsel {
using nlohmann::json;
namespace {

// A KV-cache format of `width` bits per value, its scales included (8: FP8, Q8_0 at 8.5; 4: ExLlamaV2's Q4 at 4.5).
bool kv_width(const Record& f, int width) {
  double bits = f.data.value("kv_bits", 0.0);
  return f.str("regime") == "kv-cache" && bits >= width && bits < width + 1;
}

// The cache dtype the sizing uses for a KV format: the record itself (its kv_bits), else
// GGML's block type where it names one.
std::string cache_dtype(const Record& f) {
  if (f.data.contains("kv_bits")) return f.id;
  return f.str("ggml_type").empty() ? "fp8" : to_lower(f.str("ggml_type"));
}

// A format whose bitrate the user picks (bpw.target: EXL2, EXL3) is sized at the largest
// bitrate that fits beside the cache, so a 16-bit cache always "fits" — at fewer bits.
bool bitrate_chosen(const Record& f) { return object_field(f.data, "bpw").contains("target"); }

// A KV format the user's --kv-cache names (fp8, int8): its id, name or element format says so.
bool names_dtype(const Record& f, const std::string& dtype) {
  return to_lower(f.id + " " + f.name + " " + f.str("element_format")).find(dtype) != std::string::npos;
}

// The engine's KV formats of `width` bits its command line can select (engine launch kv_cache), preferring the dtype the
// user named: its 8-bit cache, or (width 4) the deeper one Rule 6 reaches for when the 8-bit one does not fit.
const Record* kv_format(const Graph& g, const Candidate& c, const std::string& dtype, const Record* target, int width = 8) {
  if (!c.engine) return nullptr;
  const Record* any = nullptr;
  for (const auto& id : served_formats(*c.engine)) {
    const Record* f = g.find(id);
    if (!f || !kv_width(*f, width) || !kv_cache_flags(*c.engine, f, target)) continue;  // never a cache its command line cannot select
    if (dtype.empty() || names_dtype(*f, dtype)) return f;
    if (!any) any = f;
  }
  return dtype.empty() ? any : nullptr;
}

// Gotchas that forbid 8-bit KV with this model and serving setup.
std::vector<std::string> forbidding(const Deliberation& d) {
  std::vector<std::string> out;
  if (!d.query.model || !d.query.model->sliding_window() || d.query.spec_decode == "none") return out;
  for (const Record* g : d.graph.of_kind(Kind::Gotcha)) {
    const auto& a = object_field(g->data, "applies");
    auto att = array_field(a, "attention");
    auto flags = array_field(a, "flags");
    bool sliding = std::find(att.begin(), att.end(), json("sliding-window")) != att.end();
    bool kv = std::any_of(flags.begin(), flags.end(), [](const json& f) { return f.get<std::string>().rfind("kv-cache=", 0) == 0; });
    if (sliding && kv) out.push_back(g->id);
  }
  return out;
}

std::string unmeasured(const Record& f) {
  if (kv_width(f, 4))
    return fmt::format("4-bit KV cache ({}) cuts the cache to about a quarter at an accuracy delta no controlled benchmark has "
                       "measured", f.id);
  return fmt::format("8-bit KV cache ({}) halves the cache at an accuracy delta no controlled benchmark has measured", f.id);
}

// The warning for an 8-bit cache: its measured cost where a benchmark record gives one.
Warning kv_warning(const Graph& g, const Record& f) {
  for (const auto& id : f.strings("/quality_delta")) {
    const Record* b = g.find(id);
    if (!b || !b->data.contains("quality")) continue;
    const json& q = b->data["quality"];
    return {"rule-6", "minor",
            fmt::format("8-bit KV cache ({}) about halves the cache; measured {} {:.2g} against the 16-bit cache [{}]", f.id,
                        q.value("metric", ""), q.value("value", 0.0), id),
            true, ""};
  }
  return {"rule-6", "major", unmeasured(f), true, ""};
}

// The forecast gain an 8-bit cache must bring under --objective speed: the forecast's own step (5%), or a quarter
// where the target has no such number format and the kernel widens what it reads.
constexpr double kSpeedGain = 1.05;
constexpr double kWidenedSpeedGain = 1.25;

void offer(Deliberation& d, Candidate& c, const std::vector<std::string>& forbid) {
  bool offloaded = c.memory && c.memory->placement;
  bool tight = c.memory && c.memory->fit == "tight";
  bool chosen = c.memory && c.memory->fits && !offloaded && !tight && bitrate_chosen(*c.format);
  // Under --objective speed every candidate whose engine serves an 8-bit cache gets it: it halves
  // the KV bytes each decode step reads, and candidates compare at the same cache.
  bool speed = d.query.objective == "speed" && c.memory && c.memory->fits && !offloaded && c.engine &&
               c.engine->str("role") == "serving";  // a local runner's quantized cache buys room, not speed
  if (!c.memory || (c.memory->fits && !offloaded && !tight && !chosen && !speed)) return;
  const Record* f = kv_format(d.graph, c, "", d.query.target);
  if (!f) return;
  Memory kv8m = candidate_memory(d, c, cache_dtype(*f));
  // Where even the 8-bit cache leaves nothing that fits on the GPU (a long context on a model without grouped-query
  // attention), the engine's 4-bit cache is the deeper capacity measure (blind audit 20 #24: Command-R v01 at 64k).
  bool deeper = false;
  double bpw_with_8bit = 0;  // set when the 4-bit cache was taken for the weight bits it buys
  // A bitrate the user picks (EXL2, EXL3) that the 8-bit cache still leaves under 4 bits per weight, where the recorded
  // accuracy cost jumps (ranking's "4 bits per weight or more"): the engine's 4-bit cache is worth it when it buys weight
  // bits (blind audit 21 #21: Qwen2.5-Coder-32B at 32k on 16 GB, 2.53 bpw with the Q8 cache, about 3.1 with Q4).
  bool nothing_fits = !c.memory->fits && !kv8m.fits;
  bool few_bits = bitrate_chosen(*c.format) && kv8m.fits && !kv8m.placement && kv8m.bpw < 4;
  if (!speed && (nothing_fits || few_bits))
    if (const Record* f4 = kv_format(d.graph, c, "", d.query.target, 4)) {
      Memory kv4m = candidate_memory(d, c, cache_dtype(*f4));
      bool takes = !kv4m.placement && (nothing_fits ? kv4m.fits : kv4m.fit == "yes" && kv4m.bpw > kv8m.bpw + 0.25);
      if (takes) {
        if (few_bits) bpw_with_8bit = kv8m.bpw;
        f = f4, kv8m = kv4m, deeper = true;
      }
    }
  // All on the GPU with an 8-bit cache beats part of the model in system RAM with a 16-bit one,
  // and a comfortable fit with it beats a tight one without.
  // A serving fit short of the sequences --concurrency asks for: the 8-bit cache is worth it when
  // its pool holds more of them, even if still short.
  bool more_sequences = tight && c.memory->capacity_short > 0 && kv8m.fits && kv8m.sequences_kept > c.memory->sequences_kept;
  // A 16-bit fit that needs the engine's memory fraction raised takes the last share of the GPU (a desktop's included);
  // an 8-bit cache that fits at the engine's own fraction is the sturdier plan.
  bool unraised = tight && c.memory->fraction_raised && kv8m.fits && !kv8m.fraction_raised && !kv8m.placement;
  // Part of the model in RAM either way: the 8-bit cache is worth it when it keeps enough more of the model on the GPU that
  // decode is a quarter faster. Its accuracy cost (KLD about 0.001, measured) is a fraction of what ranking charges the
  // offload for that speed (0.02 per halving) (blind audit 26 #3: a 14B at 32k on 11 GB kept 18 of 48 layers in RAM for the
  // sake of a 16-bit cache).
  const bool fewer_in_ram = offloaded && kv8m.placement && !speed &&
                            rule_util::target_has_precisions(*d.query.target, *f) &&
                            decode_speed(kv8m) >= decode_speed(*c.memory) * kWidenedSpeedGain;
  if (!kv8m.fits || (offloaded && kv8m.placement && !fewer_in_ram) ||
      (tight && !speed && kv8m.fit != "yes" && !more_sequences && !unraised))
    return;
  // Where the target lacks the cache's number format, the attention kernel widens every value it reads (an FP8 cache
  // decodes slower than BF16 on RDNA3 and on Arc: vLLM issue 56992, llm-scaler issue 666): a 16-bit cache that fits,
  // only inside qsel's margin, keeps its cache; the 8-bit one is offered where it is needed, not for room (blind audit 20 #7, #21).
  bool widened = !rule_util::target_has_precisions(*d.query.target, *f);
  if (tight && !speed && widened && !more_sequences && !unraised) return;
  if (speed && kv8m.placement) return;
  // Under speed the 8-bit cache must buy speed the forecast can see: at one sequence of a short context the cache is a
  // sliver of the bytes read. Where the target lacks the cache's number format the kernel widens every value it reads
  // (an FP8 cache on RDNA3 decodes slower than BF16: issue 56992 of that engine), so it must buy more.
  if (speed && !tight && !c.memory->placement) {
    double before = decode_speed(*c.memory), after = decode_speed(kv8m);
    double need = rule_util::target_has_precisions(*d.query.target, *f) ? kSpeedGain : kWidenedSpeedGain;
    if (before > 0 && after < before * need) return;
  }
  // A chosen bitrate: the 8-bit cache is worth it when it lets a larger published bitrate fit.
  bool larger = chosen && kv8m.fit == "yes" && kv8m.bpw > c.memory->bpw + 1e-9;
  if (chosen && !speed && !larger) return;
  double lower_bpw = c.memory->bpw;
  double before_speed = decode_speed(*c.memory);
  int fewer_sequences = c.memory->sequences;
  std::string raised_setting = c.memory->setting;
  c.rules.push_back("rule-6");
  if (!forbid.empty()) {
    c.why.push_back(fmt::format("Rule 6 — an 8-bit KV cache would fit, but never with sliding-window attention and "
                                "speculative decoding [{}]", fmt::join(forbid, ", ")));
    return;
  }
  kv8m.kv_dtype = f->id;
  c.memory = kv8m;
  c.why.push_back(larger ? fmt::format("Rule 6 — with the 16-bit KV cache the largest bitrate that fits is {:.2f} bpw; with {} ({}) "
                                       "it is {:.2f} bpw", lower_bpw, f->id, f->str("name"), kv8m.bpw)
                  : speed && !tight ? fmt::format("Rule 6 — objective speed: {} ({}) halves the KV cache every decode step reads; "
                                                "each candidate its engine serves it for is compared with it", f->id, f->str("name"))
                  : fewer_in_ram
                      ? fmt::format("Rule 6 — part of the model goes to system RAM with either cache; with {} ({}) more of it "
                                    "stays on the GPU, and decode is forecast at {:.0f} tok/s against {:.0f}", f->id,
                                    f->str("name"), decode_speed(kv8m), before_speed)
                  : offloaded ? fmt::format("Rule 6 — with the 16-bit KV cache part of the model would go to system RAM; "
                                          "with {} ({}) it all stays on the GPU", f->id, f->str("name"))
                  : unraised && kv8m.fit != "yes"
                      ? fmt::format("Rule 6 — with the 16-bit KV cache it fits only with {}; with {} ({}) it fits at {}'s own "
                                    "memory fraction", raised_setting, f->id, f->str("name"), c.engine ? c.engine->id : "the engine")
                  : more_sequences && kv8m.fit != "yes"
                      ? fmt::format("Rule 6 — with the 16-bit KV cache the pool holds {} sequence(s) of the context; with {} ({}) "
                                    "it holds {}, as a capacity measure", fewer_sequences, f->id, f->str("name"), kv8m.sequences)
                  : deeper && bpw_with_8bit > 0
                      ? fmt::format("Rule 6 — with the 8-bit KV cache the largest bitrate that fits is {:.2f} bpw, under 4; with {} "
                                    "({}) it is {:.2f} bpw", bpw_with_8bit, f->id, f->str("name"), kv8m.bpw)
                  : deeper ? fmt::format("Rule 6 — neither the 16-bit nor the 8-bit KV cache fits; {} ({}) does, as a capacity "
                                         "measure", f->id, f->str("name"))
                  : tight  ? fmt::format("Rule 6 — with the 16-bit KV cache it fits only tight; with {} ({}) it fits with room, "
                                         "as a capacity measure", f->id, f->str("name"))
                           : fmt::format("Rule 6 — the 16-bit KV cache does not fit; {} ({}) does, as a capacity measure",
                                         f->id, f->str("name")));
  c.warnings.push_back(kv_warning(d.graph, *f));
  rule_util::add_unique(c.evidence, f->id);
}

// --kv-cache fp8|int8: the plan is sized for the 8-bit format the engine serves and written with the
// flags that select it; an engine that serves none, or cannot select it on its command line, is not
// offered (a plan sized for a cache the command would not allocate is no plan). Returns false to drop it.
bool explicit_kv(Deliberation& d, Candidate& c, const std::vector<std::string>& forbid) {
  const Record* f = kv_format(d.graph, c, d.query.kv_cache, d.query.target);
  if (c.engine && !f) {
    // What it does serve, so the user can ask for that instead (llama.cpp has no FP8 cache; its 8-bit one is Q8_0).
    const Record* other = kv_format(d.graph, c, "", d.query.target);
    std::string instead;
    if (other) {
      std::string el = to_lower(other->str("element_format"));
      std::string ask = el.find("int") != std::string::npos || el.find("q8") != std::string::npos || to_lower(other->id).find("q8") != std::string::npos
                            ? "int8" : el.find("e4m3") != std::string::npos || el.find("e5m2") != std::string::npos ? "fp8" : "";
      instead = fmt::format("; its 8-bit cache is {} ({}){}", other->id, other->name,
                            ask.empty() || ask == d.query.kv_cache ? "" : fmt::format(": --kv-cache {} asks for it", ask));
    }
    // The engine records that no backend of it takes the asked cache on this target (launch kv_cache refused).
    for (const auto& id : served_formats(*c.engine)) {
      const Record* asked = d.graph.find(id);
      if (!asked || !kv_width(*asked, 8) || !names_dtype(*asked, d.query.kv_cache)) continue;
      if (const auto* refusal = kv_cache_refusal(*c.engine, asked, d.query.target)) {
        d.excluded.push_back({c.format->id, c.engine->id, "rule-6",
                              fmt::format("--kv-cache {}: {} has no attention backend that takes {} on {}{}{}", d.query.kv_cache, c.engine->id,
                                          asked->id, d.query.target->id, refusal->value("note", "").empty() ? "" : ": ",
                                          refusal->value("note", "")),
                              {}});
        return false;
      }
    }
    d.excluded.push_back({c.format->id, c.engine->id, "rule-6",
                          fmt::format("--kv-cache {}: {} serves no {} KV-cache format its command line can select (engine "
                                      "formats and launch kv_cache), so no command of it allocates the cache the plan would be "
                                      "sized for: not offered{}", d.query.kv_cache, c.engine->id, d.query.kv_cache, instead),
                          {}});
    return false;
  }
  c.rules.push_back("rule-6");
  if (!forbid.empty())
    c.warnings.push_back({"rule-6", "blocker", fmt::format("8-bit KV with sliding-window attention and speculative decoding "
                                                           "silently corrupts output [{}]", fmt::join(forbid, ", ")), true, ""});
  if (f) {
    if (c.memory) {  // sized as the engine stores it (GGML Q8_0 blocks are 8.5 bits), named by the format record
      Memory m = candidate_memory(d, c, cache_dtype(*f));
      m.kv_dtype = f->id;
      c.memory = m;
    }
    c.warnings.push_back(kv_warning(d.graph, *f));
    rule_util::add_unique(c.evidence, f->id);
  }
  return true;
}

}  // namespace

void apply_rule6(Deliberation& d) {
  auto forbid = forbidding(d);
  bool eight_bit = d.query.kv_cache == "fp8" || d.query.kv_cache == "int8";
  std::vector<Candidate> kept;
  for (auto& c : d.candidates) {
    if (eight_bit && !explicit_kv(d, c, forbid)) continue;
    if (!eight_bit && d.query.kv_cache == "auto") offer(d, c, forbid);
    kept.push_back(std::move(c));
  }
  d.candidates = std::move(kept);
}

}  // namespace qsel
