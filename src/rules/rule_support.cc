#include "rule_support.h"

#include <algorithm>

#include <fmt/format.h>

namespace qsel::rule_util {

using nlohmann::json;

bool contains(const std::vector<std::string>& v, const std::string& s) { return std::find(v.begin(), v.end(), s) != v.end(); }

void add_unique(std::vector<std::string>& v, const std::string& s) {
  if (!s.empty() && !contains(v, s)) v.push_back(s);
}

bool target_has_precisions(const Record& target, const Record& format) {
  auto have = target.strings("/tensor_core_precisions");
  for (const auto& need : format.strings("/requires_tensor_core"))
    if (!contains(have, need)) return false;
  return true;
}

bool weight_only(const Record& format) { return format.data.value("weight_only", false); }

bool is_baseline(const Record& format) { return format.str("scheme") == "unquantized"; }

bool engine_runs_on(const Record& engine, const Record& target) {
  if (engine.data.contains("runs_on") && !selector_matches(engine.data["runs_on"], target)) return false;
  auto platforms = engine.strings("/platforms");
  return platforms.empty() || contains(platforms, target.str("platform"));
}

std::vector<std::string> kernel_exclusions(const Record& kernel, const std::string& format, const std::string& target) {
  std::vector<std::string> out;
  for (const auto& ex : kernel.data.value("excludes", json::array())) {
    auto names = [&](const char* key, const std::string& id) {
      if (!ex.contains(key)) return true;
      const auto& l = ex[key];
      return std::find(l.begin(), l.end(), json(id)) != l.end();
    };
    if (names("formats", format) && names("targets", target)) out.push_back(ex.value("reason", ""));
  }
  return out;
}

std::vector<std::pair<const Record*, std::string>> exclusions_anywhere(const Graph& g, const std::string& format,
                                                                      const std::string& target) {
  std::vector<std::pair<const Record*, std::string>> out;
  for (const Record* k : g.of_kind(Kind::Kernel))
    for (const auto& reason : kernel_exclusions(*k, format, target)) out.emplace_back(k, reason);
  return out;
}

bool flags_hold(const json& flags, const Query& q, std::string* condition) {
  auto have = q.flags();
  std::vector<std::string> unknown;
  for (const auto& f : flags) {
    std::string flag = f.get<std::string>();
    if (have.count(flag)) continue;
    if (q.knows_flag(flag)) return false;
    unknown.push_back(flag);
  }
  if (condition) *condition = fmt::format("{}", fmt::join(unknown, ", "));
  return true;
}


}  // namespace qsel::rule_util

namespace qsel {

std::vector<std::string> served_formats(const Record& engine) {
  std::vector<std::string> out = engine.strings("/formats");
  for (const auto& entry : engine.data.value("kernel_selection", nlohmann::json::array()))
    for (const auto& f : entry.value("formats", nlohmann::json::array())) rule_util::add_unique(out, f.get<std::string>());
  return out;
}

}  // namespace qsel
