// Rule 2 — verify which kernel is actually running. Name the kernel the engine
// picks on this target (first matching kernel_selection entry), derive the path
// (native, dequant, emulated), keep conflicts between records open, attach the
// matching gotchas and the post-deploy checks that cost nothing.
#include <algorithm>

#include <fmt/format.h>

#include "qsel/rules/gotchas.h"
#include "qsel/rules/rules.h"
#include "rule_support.h"

namespace qsel {
namespace {

using nlohmann::json;
using rule_util::contains;

bool entry_names(const json& entry, const Record& format) {
  const auto& fs = entry.value("formats", json::array());
  if (std::find(fs.begin(), fs.end(), json(format.id)) != fs.end()) return true;
  const auto& rs = entry.value("regimes", json::array());
  return std::find(rs.begin(), rs.end(), json(format.str("regime"))) != rs.end();
}

// The first entry whose format, target, flags and kernel all hold. Entries that
// need a flag the query cannot observe are passed over (not assumed set).
const Record* pick_kernel(const Graph& g, const Record& engine, const Record& format, const Query& q, std::string& note) {
  for (const auto& entry : engine.data.value("kernel_selection", json::array())) {
    if (!entry_names(entry, format)) continue;
    if (entry.contains("when") && !selector_matches(entry["when"], *q.target)) continue;
    std::string unknown;
    if (entry.contains("flags") && (!rule_util::flags_hold(entry["flags"], q, &unknown) || !unknown.empty())) continue;
    const Record* k = g.find(entry["kernel"].get<std::string>());
    if (!k || !selector_matches(k->data.value("runs_on", json::object()), *q.target)) continue;
    if (!rule_util::kernel_exclusions(*k, format.id, q.target->id).empty()) continue;
    note = entry.value("note", "");
    return k;
  }
  return nullptr;
}

std::string path_for(const Record& format, const Record& kernel, const Record& target) {
  if (rule_util::weight_only(format)) return "dequant";
  if (kernel.str("mode") == "native" && rule_util::target_has_precisions(target, format)) return "native";
  return "emulated";
}

void add_conflicts(Deliberation& d, Candidate& c) {
  if (c.path != "native") return;
  for (const auto& [k, reason] : rule_util::exclusions_anywhere(d.graph, c.format->id, d.query.target->id)) {
    c.conflicts.push_back(fmt::format("{} says {} does not run on {}: {}", k->id, c.format->id, d.query.target->id, reason));
    rule_util::add_unique(c.evidence, k->id);
  }
  if (!c.conflicts.empty())
    c.warnings.push_back({"rule-2", "major",
                          fmt::format("contested: {} path and kernel records disagree about {} on {} — unresolved",
                                      c.engine->id, c.format->id, d.query.target->id), false, ""});
}

void add_checks(const Candidate& c, std::vector<std::string>& checks) {
  if (c.kernel && !c.kernel->str("log_line").empty())
    checks.push_back(fmt::format("grep the {} startup log for \"{}\" — it names the kernel that runs [{}]", c.engine->id,
                                 c.kernel->str("log_line"), c.kernel->id));
  auto schemes = c.format->strings("/checkpoint_scheme_names");
  if (!schemes.empty())
    checks.push_back(fmt::format("read the checkpoint config's quantization scheme: expect {} [{}]",
                                 fmt::join(schemes, " / "), c.format->id));
  for (const auto& s : c.engine->data.value("startup_checks", json::array())) {
    std::string hook = s.value("command", s.value("log_line", std::string()));
    checks.push_back(fmt::format("{}{} [{}]", s["text"].get<std::string>(), hook.empty() ? "" : " — `" + hook + "`", c.engine->id));
  }
}

bool resolve_kernel(Deliberation& d, Candidate& c) {
  std::string note;
  c.kernel = pick_kernel(d.graph, *c.engine, *c.format, d.query, note);
  c.rules.push_back("rule-2");
  if (!c.kernel && c.cells.empty()) {
    d.excluded.push_back({c.format->id, c.engine->id, "rule-2",
                          fmt::format("{}'s kernel selection has no entry that runs {} on {}", c.engine->id, c.format->id,
                                      d.query.target->id), {c.engine->id}});
    return false;
  }
  if (!c.kernel) {
    c.path = rule_util::weight_only(*c.format) ? "dequant" : "native";
    d.unknowns.push_back(fmt::format("{} on {}: the matrix says yes but no kernel_selection entry names the kernel",
                                     c.engine->id, c.format->id));
    return true;
  }
  c.path = path_for(*c.format, *c.kernel, *d.query.target);
  c.evidence.push_back(c.engine->id);
  c.evidence.push_back(c.kernel->id);
  c.why.push_back(fmt::format("Rule 2 — on {} {} picks {} ({} path)", d.query.target->id, c.engine->id, c.kernel->id, c.path));
  return true;
}

void warn_emulated(Candidate& c) {
  if (c.path != "emulated") return;
  c.warnings.push_back({"rule-2", "major",
                        fmt::format("{} is served as weight-only through {}: memory saving, no compute speedup", c.format->id,
                                    c.kernel ? c.kernel->id : "a dequant kernel"), true, ""});
}

}  // namespace

void apply_rule2(Deliberation& d) {
  std::vector<Candidate> kept;
  for (auto& c : d.candidates) {
    if (c.engine && !resolve_kernel(d, c)) continue;
    if (c.engine) {
      add_conflicts(d, c);
      warn_emulated(c);
      GotchaScope scope{c.format, d.query.target, c.engine, c.kernel, d.query.accelerator};
      for (auto& w : matching_gotchas(d.graph, scope, d.query)) c.warnings.push_back(w);
      add_checks(c, c.checks);
    }
    kept.push_back(std::move(c));
  }
  d.candidates = std::move(kept);
}

}  // namespace qsel
