#include "qsel/rules/gotchas.h"
#include "qsel/core/json_number.h"

#include <algorithm>

#include <fmt/format.h>

#include "qsel/rules/rule_support.h"

namespace qsel {
using nlohmann::json;
namespace {

using rule_util::contains;

// An id list in `applies` holds when absent, or when the record in scope is listed.
bool listed(const json& applies, const char* key, const Record* r) {
  if (!applies.contains(key)) return true;
  if (!r) return false;
  const json& l = applies[key];
  return std::find(l.begin(), l.end(), json(r->id)) != l.end();
}

bool accelerator_holds(const Graph& g, const json& applies, const GotchaScope& s) {
  if (!applies.contains("accelerators")) return true;
  if (s.accelerator) return listed(applies, "accelerators", s.accelerator);
  for (const auto& id : applies["accelerators"]) {  // a bare target: any part built on it
    const Record* a = g.find(id.get<std::string>());
    if (a && s.target && a->str("target") == s.target->id) return true;
  }
  return false;
}

bool attention_holds(const json& applies, const Query& q, std::string& condition) {
  if (!applies.contains("attention")) return true;
  if (!q.model) {
    condition = fmt::format("attention: {}", fmt::join(applies["attention"].get<std::vector<std::string>>(), "/"));
    return true;
  }
  for (const auto& a : applies["attention"]) {
    std::string want = a.get<std::string>();
    if (want == q.model->attention || (want == "sliding-window" && q.model->sliding_window())) return true;
  }
  return false;
}

}  // namespace

int severity_rank(const std::string& s) { return s == "blocker" ? 0 : s == "major" ? 1 : 2; }

std::optional<Warning> match_gotcha(const Graph& g, const Record& gotcha, const GotchaScope& s, const Query& q) {
  if (gotcha.str("audience") == "curator") return {};  // a note for curators never reaches a deployer's answer
  const json& a = object_field(gotcha.data, "applies");
  if (!listed(a, "formats", s.format) || !listed(a, "engines", s.engine) || !listed(a, "kernels", s.kernel)) return {};
  if (a.contains("backends") && !contains(a["backends"].get<std::vector<std::string>>(), s.backend)) return {};
  if (a.contains("regimes") && (!s.format || !contains(a["regimes"].get<std::vector<std::string>>(), s.format->str("regime"))))
    return {};
  if (a.contains("targets") && (!s.target || !selector_matches(a["targets"], *s.target))) return {};
  if (!accelerator_holds(g, a, s)) return {};
  if (a.contains("models") && (!q.model || !contains(a["models"].get<std::vector<std::string>>(), q.model->id))) return {};
  std::string condition, flag_condition;
  if (!attention_holds(a, q, condition)) return {};
  if (a.contains("flags") && !rule_util::flags_hold(a["flags"], q, &flag_condition)) return {};
  if (!flag_condition.empty()) condition = condition.empty() ? flag_condition : condition + ", " + flag_condition;
  return Warning{gotcha.id, gotcha.str("severity"), gotcha.name, gotcha.data.value("silent", false), condition, gotcha.str("effect")};
}

std::vector<Warning> matching_gotchas(const Graph& g, const GotchaScope& s, const Query& q) {
  std::vector<Warning> out;
  for (const Record* r : g.of_kind(Kind::Gotcha))
    if (auto w = match_gotcha(g, *r, s, q)) out.push_back(*w);
  std::stable_sort(out.begin(), out.end(), [](const Warning& x, const Warning& y) {
    return std::tuple(x.condition.empty() ? 0 : 1, severity_rank(x.severity), !x.silent) <
           std::tuple(y.condition.empty() ? 0 : 1, severity_rank(y.severity), !y.silent);
  });
  return out;
}

}  // namespace qsel
