#include "qsel/rules/rule_support.h"

#include <algorithm>

#include <fmt/format.h>

namespace qsel::rule_util {

using nlohmann::json;

bool contains(const std::vector<std::string>& v, const std::string& s) { return std::find(v.begin(), v.end(), s) != v.end(); }

int grade_rank(const std::string& grade) {
  static const char* order[] = {"controlled", "paper", "vendor-claim", "derived", "anecdotal", "unverified"};
  for (int i = 0; i < 6; ++i)
    if (grade == order[i]) return i;
  return 6;
}

void add_unique(std::vector<std::string>& v, const std::string& s) {
  if (!s.empty() && !contains(v, s)) v.push_back(s);
}

bool target_has_precisions(const Record& target, const Record& format) {
  auto have = target.strings("/tensor_core_precisions");
  for (const auto& need : format.strings("/requires_tensor_core"))
    if (!contains(have, need)) return false;
  return true;
}

bool target_has_dtype(const Record& target, const std::string& dtype) {
  return contains(target.strings("/tensor_core_precisions"), dtype) || contains(target.strings("/vector_precisions"), dtype);
}

std::vector<std::string> missing_precisions(const Record& target, const Record& format) {
  std::vector<std::string> out;
  auto have = target.strings("/tensor_core_precisions");
  for (const auto& need : format.strings("/requires_tensor_core"))
    if (!contains(have, need)) out.push_back(need);
  return out;
}

// Every entry that matches counts (an experimental format on a deprecated target is
// both); the least mature level wins, and its reasons are all given.
int maturity_rank(const std::string& level) {
  static const std::vector<std::string> order = {"mainline", "plugin", "unlisted", "experimental", "deprecated"};
  return static_cast<int>(std::find(order.begin(), order.end(), level) - order.begin());
}

Maturity maturity_of(const Record& engine, const Record& format, const Record& target, const Record* accelerator) {
  auto rank = maturity_rank;
  Maturity out;
  for (const auto& m : engine.data.value("maturity", json::array())) {
    if (m.contains("formats")) {
      const auto& fs = m["formats"];
      if (std::find(fs.begin(), fs.end(), json(format.id)) == fs.end()) continue;
    }
    if (m.contains("when") && !selector_matches(m["when"], target)) continue;
    if (m.contains("markets")) {
      const auto& ms = m["markets"];
      if (!accelerator || std::find(ms.begin(), ms.end(), json(accelerator->str("market"))) == ms.end()) continue;
    }
    std::string level = m["level"].get<std::string>(), reason = m["reason"].get<std::string>();
    if (rank(level) > rank(out.level)) out.level = level;
    if (rank(level) > 0) out.reason = out.reason.empty() ? reason : out.reason + "; " + reason;
  }
  return out;
}

bool engine_runs_on(const Record& engine, const Record& target) {
  if (engine.data.contains("runs_on") && !selector_matches(engine.data["runs_on"], target)) return false;
  auto platforms = engine.strings("/platforms");
  return platforms.empty() || contains(platforms, target.str("platform"));
}

namespace {

std::vector<std::string> exclusions_of(const Record& kernel, const std::string& format, const std::string& target, bool general_only) {
  std::vector<std::string> out;
  for (const auto& ex : kernel.data.value("excludes", json::array())) {
    if (general_only && !ex.value("general", false)) continue;
    auto names = [&](const char* key, const std::string& id) {
      if (!ex.contains(key)) return true;
      const auto& l = ex[key];
      return std::find(l.begin(), l.end(), json(id)) != l.end();
    };
    if (names("formats", format) && names("targets", target)) out.push_back(ex.value("reason", ""));
  }
  return out;
}

}  // namespace

std::vector<std::string> kernel_exclusions(const Record& kernel, const std::string& format, const std::string& target) {
  return exclusions_of(kernel, format, target, false);
}

std::vector<std::pair<const Record*, std::string>> exclusions_anywhere(const Graph& g, const std::string& format,
                                                                      const std::string& target) {
  std::vector<std::pair<const Record*, std::string>> out;
  for (const Record* k : g.of_kind(Kind::Kernel))
    for (const auto& reason : exclusions_of(*k, format, target, true)) out.emplace_back(k, reason);
  return out;
}

namespace {

bool entry_names(const json& entry, const Record& format) {
  const auto& fs = entry.value("formats", json::array());
  if (std::find(fs.begin(), fs.end(), json(format.id)) != fs.end()) return true;
  const auto& rs = entry.value("regimes", json::array());
  return std::find(rs.begin(), rs.end(), json(format.str("regime"))) != rs.end();
}

}  // namespace

KernelPick pick_kernel(const Graph& g, const Record& engine, const Record& format, const Query& q) {
  if (!engine.data.contains("kernel_selection")) return {};
  for (const auto& entry : engine.data.at("kernel_selection")) {  // by reference: the pick points into the record
    if (!entry_names(entry, format)) continue;
    if (entry.contains("when") && !selector_matches(entry["when"], *q.target)) continue;
    std::string unknown;
    if (entry.contains("flags") && (!flags_hold(entry["flags"], q, &unknown) || !unknown.empty())) continue;
    const Record* k = g.find(entry["kernel"].get<std::string>());
    if (!k || !selector_matches(k->data.value("runs_on", json::object()), *q.target)) continue;
    if (!kernel_exclusions(*k, format.id, q.target->id).empty()) continue;
    return {k, &entry};
  }
  return {};
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

bool fits(const Candidate& c) { return !c.memory || c.memory->fits; }

bool broken(const Candidate& c) { return c.quality.known && !c.quality.reference && c.quality.total() >= broken_threshold(); }

bool has_blocker(const Candidate& c) {
  return std::any_of(c.warnings.begin(), c.warnings.end(), [](const Warning& w) { return w.severity == "blocker" && w.condition.empty(); });
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
