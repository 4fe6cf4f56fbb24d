#include "qsel/graph/selector.h"

#include <algorithm>

namespace qsel {
namespace {

using nlohmann::json;

bool listed(const json& selector, const char* key, const std::string& value) {
  const json& list = selector[key];
  return std::find(list.begin(), list.end(), json(value)) != list.end();
}

// A list condition holds when the key is absent or the value is in the list.
bool list_holds(const json& selector, const char* key, const std::string& value) {
  return !selector.contains(key) || listed(selector, key, value);
}

bool cc_holds(const json& selector, const Record& target) {
  if (!selector.contains("min_cc") && !selector.contains("max_cc")) return true;
  const json& cc = target.data.value("compute_capability", json());
  if (!cc.is_number()) return false;
  double v = cc.get<double>();
  if (selector.contains("min_cc") && v < selector["min_cc"].get<double>()) return false;
  return !selector.contains("max_cc") || v <= selector["max_cc"].get<double>();
}

}  // namespace

bool selector_matches(const json& selector, const Record& target) {
  if (!selector.is_object()) return true;
  if (selector.contains("not_targets") && listed(selector, "not_targets", target.id)) return false;
  return list_holds(selector, "targets", target.id) && list_holds(selector, "vendors", target.str("vendor")) &&
         list_holds(selector, "platforms", target.str("platform")) &&
         list_holds(selector, "families", target.str("family")) && cc_holds(selector, target);
}

std::vector<const Record*> matching_targets(const json& selector, const Graph& g) {
  std::vector<const Record*> out;
  for (const Record* t : g.of_kind(Kind::Target))
    if (selector_matches(selector, *t)) out.push_back(t);
  return out;
}

}  // namespace qsel
