// Rule 7 — the non-post-training families are not choices: training-time
// recipes (post_training: false) and silicon-less W4A4 research are excluded, each
// listed once with the reason.
#include <algorithm>

#include <fmt/format.h>

#include "qsel/rules/rules.h"
#include "qsel/rules/rule_support.h"

namespace qsel {
namespace {

std::string reason_for(const Record& f) {
  if (!f.data.value("post_training", true))
    return "a training-time recipe, not a choice for an existing checkpoint (no post-training path keeps its quality)";
  return "research quantization with no deployable silicon or kernel path: cite it for accuracy, not for speed";
}

bool not_a_choice(const Record& f) {
  return !f.data.value("post_training", true) || f.data.value("research_only", false);
}

}  // namespace

void apply_rule7(Deliberation& d) {
  for (const Record* f : d.graph.of_kind(Kind::Format)) {
    if (!not_a_choice(*f)) continue;
    if (!d.query.formats.empty() && !rule_util::contains(d.query.formats, f->id)) continue;
    d.excluded.push_back({f->id, "", "rule-7", reason_for(*f), {f->id}});
  }
  auto& c = d.candidates;
  c.erase(std::remove_if(c.begin(), c.end(), [](const Candidate& x) { return not_a_choice(*x.format); }), c.end());
}

}  // namespace qsel
