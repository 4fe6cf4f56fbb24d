// Rule 3 — where two formats both run natively and one records that it is
// preferred over the other (NVFP4 over MXFP4 on risk), rank it first unless the
// user asks for what the other offers (--portable). The evidence grade is said.
#include <fmt/format.h>

#include "qsel/rules/rules.h"
#include "qsel/core/json_number.h"
#include "qsel/rules/rule_support.h"

namespace qsel {
using nlohmann::json;
namespace {

Candidate* native_twin(Deliberation& d, const Candidate& a, const std::string& format) {
  for (auto& c : d.candidates)
    if (c.format->id == format && c.engine == a.engine && c.path == "native") return &c;
  return nullptr;
}

void prefer(Deliberation& d, Candidate& a, const json& pref) {
  Candidate* b = native_twin(d, a, pref["format"].get<std::string>());
  if (!b) return;
  bool portable_asked = d.query.portable && pref.value("unless", "") == "portable";
  Candidate& first = portable_asked ? *b : a;
  Candidate& second = portable_asked ? a : *b;
  second.rank_tier += 1;
  std::string grade = pref.value("grade", "unknown");
  for (Candidate* c : {&a, b}) {
    c->rules.push_back("rule-3");
    for (const auto& e : array_field(pref, "evidence")) rule_util::add_unique(c->evidence, e.get<std::string>());
  }
  if (portable_asked) {
    first.why.push_back(fmt::format("Rule 3 — ranked above {} because portability was asked for (--portable)", second.format->id));
    second.why.push_back(fmt::format("Rule 3 — would rank above {} on risk ({} evidence), but --portable puts the open format first",
                                     first.format->id, grade));
  } else {
    first.why.push_back(fmt::format("Rule 3 — ranked above {} on risk; the evidence is {}: {}", second.format->id, grade,
                                    pref.value("reason", "")));
    second.why.push_back(fmt::format("Rule 3 — ranked below {} on risk ({} evidence); pass --portable to rank it first",
                                     first.format->id, grade));
  }
}

}  // namespace

void apply_rule3(Deliberation& d) {
  for (auto& a : d.candidates) {
    if (a.path != "native" || !a.engine) continue;
    for (const auto& pref : array_field(a.format->data, "preferred_over")) prefer(d, a, pref);
  }
}

}  // namespace qsel
