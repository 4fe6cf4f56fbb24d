#include "qsel/graph/selector.h"

#include <algorithm>

namespace qsel {
using nlohmann::json;
namespace {

// True when the list at `key` names `value` (a lone string counts as a list of one).
bool listed(const json& selector, const char* key, const std::string& value) {
  auto it = selector.find(key);
  if (it == selector.end()) return false;
  for (const json& v : *it)
    if (v.is_string() && v.get_ref<const std::string&>() == value) return true;
  return false;
}

// A list condition holds when the key is absent or the value is in the list.
bool list_holds(const json& selector, const char* key, const std::string& value) {
  return !selector.contains(key) || listed(selector, key, value);
}

// The target's text field, read in place: matching runs once per selector and target.
const std::string& text_of(const Record& target, const char* key) {
  static const std::string none;
  auto it = target.data.find(key);
  return it != target.data.end() && it->is_string() ? it->get_ref<const std::string&>() : none;
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
  if (listed(selector, "not_targets", target.id)) return false;
  return list_holds(selector, "targets", target.id) && list_holds(selector, "vendors", text_of(target, "vendor")) &&
         list_holds(selector, "platforms", text_of(target, "platform")) &&
         list_holds(selector, "families", text_of(target, "family")) && cc_holds(selector, target);
}

std::vector<const Record*> matching_targets(const json& selector, const Graph& g) {
  std::vector<const Record*> out;
  for (const Record* t : g.of_kind(Kind::Target))
    if (selector_matches(selector, *t)) out.push_back(t);
  return out;
}

}  // namespace qsel
