// After ranking: an answer that is no deployment says so first. When the best the
// engines allowed can do is an experimental serving path, a format in the broken
// range, or an up-cast of a model that ships quantized, the lead says which, and
// names what does run well: the answer with every engine allowed, and the GPUs of
// this kind (--count) at which an allowed engine serves a mainline path, where the
// machine can take more. recommend then exits 1 (docs/commands/recommend.md).
#include <fmt/format.h>

#include "qsel/rules/candidate_memory.h"
#include "qsel/rules/quality.h"
#include "qsel/rules/rule_support.h"
#include "qsel/rules/rules.h"

namespace qsel {
namespace {


// The baseline served for a model whose primary release is quantized: its own bytes, twice or more.
bool upcast(const Deliberation& d, const Candidate& c) {
  const Release* shipped = d.query.model ? d.query.model->shipped() : nullptr;
  const Record* sf = shipped ? d.graph.find(shipped->format) : nullptr;
  return sf && !is_baseline(*sf) && is_baseline(*c.format);
}

// Why `c` is not a deployment, or "" when it is one.
std::string not_deployable(const Deliberation& d, const Candidate& c) {
  if (!rule_util::fits(c)) return "";
  if (rule_util::maturity_rank(c.maturity) > 0)
    return fmt::format("only through {}'s {} path for {}{}", c.engine ? c.engine->id : "-", c.maturity, c.format->id,
                       c.maturity_reason.empty() ? "" : " (" + c.maturity_reason + ")");
  if (rule_util::broken(c)) return fmt::format("only at a quality in the broken range ({} on {}, {})", c.format->id, c.engine ? c.engine->id : "-", c.quality.short_text);
  if (upcast(d, c))
    return fmt::format("only as a {} up-cast of the {} release, which gains nothing over the release and reads twice its bytes",
                       c.format->id, d.query.model->shipped()->format);
  return "";
}

}  // namespace

void restriction_lead(Deliberation& d) {
  if (d.candidates.empty() || !d.query.model) return;
  std::string why = not_deployable(d, d.candidates.front());
  if (why.empty()) return;
  d.deployable = false;
  d.lead_kind = "no-deployment";
  bool restricted = !d.query.engines.empty();
  d.lead.push_back(fmt::format("none {}: {} runs here {}", restricted ? fmt::format("among the engines asked for ({})", fmt::join(d.query.engines, ", "))
                                                                               : "on this machine",
                               d.query.model->id.empty() ? "the model" : d.query.model->id, why));
  if (restricted) {
    Query all = d.query;
    all.engines.clear();
    Fitted fitted{d.calibration, d.quality_model};
    Deliberation other = deliberate(d.graph, all, &fitted);
    if (!other.candidates.empty() && other.deployable && rule_util::fits(other.candidates.front()))
      d.lead.push_back(fmt::format("what runs well: {} (--engine {})", rule_util::describe_candidate(other.candidates.front()),
                                   other.candidates.front().engine ? other.candidates.front().engine->id : "any"));
  }
  if (rule_util::takes_more_parts(d.query.accelerator)) {  // the fewest GPUs at which a mainline path fits; the best-ranked at that count
    const Candidate* best = nullptr;
    int fewest = 0;  // the fewest GPUs; at that count the release, then the best estimate
    for (const auto& c : d.candidates) {
      if (rule_util::maturity_rank(c.maturity) > 0 || rule_util::broken(c) || upcast(d, c) || !c.memory || c.memory->bpw <= 0) continue;
      int n = smallest_count(d, c);
      bool better = !best || n < fewest || (n == fewest && c.shipped && !best->shipped) ||
                    (n == fewest && c.shipped == best->shipped && c.quality.total() < best->quality.total());
      if (n > d.query.count && n <= 8 && better) {
        best = &c;
        fewest = n;
      }
    }
    if (best) d.lead.push_back(fmt::format("with --count {}: {} fits", fewest, rule_util::describe_candidate(*best)));
  }
}

}  // namespace qsel
