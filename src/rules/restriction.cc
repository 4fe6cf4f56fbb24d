// After ranking: an answer that is no deployment says so first. When the best the
// engines allowed can do is an experimental serving path, a format in the broken
// range, or an up-cast of a model that ships quantized, the lead says which, and
// names what does run well: the answer with every engine allowed, and the GPUs of
// this kind (--count) at which an allowed engine serves a mainline path, where the
// machine can take more. recommend then exits 1 (docs/commands/recommend.md).
#include <algorithm>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "qsel/rules/candidate_memory.h"
#include "qsel/rules/quality.h"
#include "qsel/rules/rule_support.h"
#include "qsel/rules/rules.h"

namespace qsel {
namespace {

// Why `c` is not a deployment, or "" when it is one.
std::string not_deployable(const Deliberation& d, const Candidate& c) {
  if (!rule_util::fits(c)) return "";
  if (!rule_util::deployable_maturity(c.maturity))
    return fmt::format("only through {}'s {} path for {}{}", c.engine ? c.engine->id : "-", c.maturity, c.format->id,
                       c.maturity_reason.empty() ? "" : " (" + c.maturity_reason + ")");
  if (rule_util::broken(c)) return fmt::format("only at a quality in the broken range ({} on {}, {})", c.format->id, c.engine ? c.engine->id : "-", c.quality.short_text);
  for (const auto& w : c.warnings)  // a recorded trap with no condition on this very path (an APU's ROCm build: wrong logits)
    if (w.severity == "blocker" && w.condition.empty())
      return fmt::format("only through a path with a blocker: {} [{}]", w.message, w.id);
  if (c.needless_upcast)
    return fmt::format("only as a {} up-cast of the {} release, which gains nothing over the release and reads twice its bytes",
                       c.format->id, d.query.model->shipped()->format);
  return "";
}

// The answer with every engine allowed (what the leads name as running well), or none.
std::optional<Candidate> first_with_every_engine(const Deliberation& d) {
  Query all = d.query;
  all.engines.clear();
  all.backends.clear();  // what runs well may be another build of the same engine (llama.cpp's Vulkan beside its ROCm)
  return first_deployment(d, all);
}

// A candidate as the leads name it, followed by the --engine flag that asks for it.
// A build of an engine that has several (llama.cpp's CUDA, ROCm, Vulkan ...) is named with its --backend when the
// question named one.
std::string with_engine_flag(const Deliberation& d, const Candidate& c) {
  bool builds = !d.query.backends.empty() && c.engine && c.engine->data.contains("backends") && !c.backend.empty();
  return fmt::format("{} (--engine {}{})", rule_util::describe_candidate(c), c.engine ? c.engine->id : "any",
                     builds ? " --backend " + c.backend : "");
}

// The engines asked for cannot load the model's quantized release here, and the plan is a format made from it (a
// second quantization): the lead says so and names what serves the release (after blind audit 17: an MXFP4 MoE
// release on a part whose engine's MXFP4 loader refuses it answered a self-made FP8 of the MXFP4 weights).
void release_elsewhere_lead(Deliberation& d, const Candidate& top) {
  const Release* shipped = d.query.model->shipped();
  if (d.query.engines.empty() || !shipped || top.shipped || !top.release.empty() || !top.online_flags.empty() ||
      is_baseline(*top.format) || top.format->id == shipped->format)
    return;
  const Record* released = d.graph.find(shipped->format);
  if (!released || is_baseline(*released)) return;
  auto refused = std::find_if(d.excluded.begin(), d.excluded.end(), [&](const Exclusion& e) { return e.format == shipped->format && !e.engine.empty(); });
  if (refused == d.excluded.end()) return;
  auto first = first_with_every_engine(d);
  if (!first || first->format != released) return;
  std::string reason = refused->reason;
  if (auto colon = reason.find(": "); colon != std::string::npos) reason = reason.substr(0, colon);
  d.lead_kind = "release-elsewhere";
  d.lead.push_back(fmt::format("{} does not serve {}'s {} release here ({}, {})", refused->engine, d.query.model->id, shipped->format,
                               refused->rule, reason));
  d.lead.push_back(fmt::format("the plan below is a {} you make from that release yourself, a second quantization on top of the first; "
                               "what serves the release: {}", top.format->id, with_engine_flag(d, *first)));
}

// Every candidate of the engines asked for was excluded (an architecture the engine no longer loads): the lead says
// why, one reason per engine, and what runs well with every engine allowed.
void nothing_left_lead(Deliberation& d) {
  if (d.query.engines.empty() || d.excluded.empty()) return;
  auto first = first_with_every_engine(d);
  if (!first) return;
  std::vector<std::string> reasons;
  for (const auto& e : d.excluded)
    if (!e.engine.empty() && e.format.empty())  // an exclusion of the engine as a whole, not of one format on it
      reasons.push_back(fmt::format("{} ({}: {})", e.engine, e.rule, e.reason));
  if (reasons.empty()) {  // else the reason most of each engine's formats were left out for (vLLM refusing float16 on Turing)
    for (const auto& engine : d.query.engines) {
      std::map<std::string, int> count;
      for (const auto& e : d.excluded)
        if (e.engine == engine && !e.format.empty()) ++count[e.rule + ": " + e.reason];
      auto most = std::max_element(count.begin(), count.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
      if (most != count.end() && most->second > 1)
        reasons.push_back(fmt::format("{} ({} of its formats: {})", engine, most->second, most->first));
    }
  }
  if (reasons.empty()) return;
  d.deployable = false;
  d.lead_kind = "no-deployment";
  d.lead.push_back(fmt::format("none among the engines asked for ({}) serves {} here: {}", fmt::join(d.query.engines, ", "),
                               d.query.model->id.empty() ? "the model" : d.query.model->id, fmt::join(reasons, "; ")));
  d.lead.push_back("what runs well: " + with_engine_flag(d, *first));
}

}  // namespace

void restriction_lead(Deliberation& d) {
  if (!d.query.model) return;
  if (d.candidates.empty()) {
    nothing_left_lead(d);
    return;
  }
  const Candidate& top = d.candidates.front();
  std::string why = not_deployable(d, top);
  if (why.empty()) {
    release_elsewhere_lead(d, top);
    return;
  }
  // A deprecated engine the user named (--engine) still runs the plan it fits: the answer is that plan, led by
  // what deprecated means for it and what runs well instead. An experimental path is never a deployment.
  bool named = top.engine && std::find(d.query.engines.begin(), d.query.engines.end(), top.engine->id) != d.query.engines.end();
  if (named && top.maturity == "deprecated" && !rule_util::broken(top) && !top.needless_upcast) {
    d.lead_kind = "deprecated-engine";
    d.lead.push_back(fmt::format("{} is deprecated{}: the plan below runs, but expect no fixes for new models or drivers",
                                 top.engine->id, top.maturity_reason.empty() ? "" : " (" + top.maturity_reason + ")"));
    if (auto first = first_with_every_engine(d)) d.lead.push_back("what runs well elsewhere: " + with_engine_flag(d, *first));
    return;
  }
  d.deployable = false;
  d.lead_kind = "no-deployment";
  bool restricted = !d.query.engines.empty();
  d.lead.push_back(fmt::format("none {}: {} runs here {}", restricted ? fmt::format("among the engines asked for ({})", fmt::join(d.query.engines, ", "))
                                                                               : "on this machine",
                               d.query.model->id.empty() ? "the model" : d.query.model->id, why));
  if (restricted)
    if (auto first = first_with_every_engine(d)) d.lead.push_back("what runs well: " + with_engine_flag(d, *first));
  // The fewest GPUs at which a mainline path fits; the best-ranked at that count.
  if (MoreParts more = fewest_more_parts(d, rule_util::offerable); more.candidate)
    d.lead.push_back(fmt::format("with --count {}: {} fits", more.count, rule_util::describe_candidate(*more.candidate)));
}

}  // namespace qsel
