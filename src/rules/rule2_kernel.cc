// Rule 2 — verify which kernel is actually running. Name the kernel the engine
// picks on this target (first matching kernel_selection entry), derive the path
// (native, dequant, emulated), keep conflicts between records open, attach the
// matching gotchas and the post-deploy checks that cost nothing.
#include <algorithm>

#include <fmt/format.h>

#include "qsel/rules/gotchas.h"
#include "qsel/rules/rules.h"
#include "qsel/rules/rule_support.h"

namespace qsel {
using nlohmann::json;
namespace {

std::string path_for(const Record& format, const Record& kernel, const Record& target) {
  if (weight_only(format)) return "dequant";
  if (kernel.str("mode") == "native" && rule_util::target_has_precisions(target, format)) return "native";
  return "emulated";
}

void add_conflicts(Deliberation& d, Candidate& c) {
  if (c.path != "native") return;
  const Record& t = *d.query.target;
  for (const auto& [k, reason] : rule_util::exclusions_anywhere(d.graph, c.format->id, t.id)) {
    if (c.kernel && rule_util::contains(c.kernel->strings("/compiled_for"), t.id)) {
      c.why.push_back(fmt::format("Rule 2 — {} says {} does not run on {}, but {} ships a {} build, so that does not apply here",
                                  k->id, c.format->id, t.id, c.kernel->id, t.id));
      rule_util::add_unique(c.evidence, k->id);
      continue;
    }
    c.conflicts.push_back(fmt::format("{} says {} does not run on {}: {}", k->id, c.format->id, t.id, reason));
    rule_util::add_unique(c.evidence, k->id);
  }
  if (!c.conflicts.empty())
    c.warnings.push_back({"rule-2", "major",
                          fmt::format("contested: {} path and kernel records disagree about {} on {} — unresolved",
                                      c.engine->id, c.format->id, t.id), false, ""});
}

void add_checks(const Deliberation& d, const Candidate& c, std::vector<std::string>& checks) {
  if (c.kernel && !c.kernel->str("log_line").empty())
    checks.push_back(fmt::format("grep the {} startup log for \"{}\" — it names the kernel that runs [{}]", c.engine->id,
                                 c.kernel->str("log_line"), c.kernel->id));
  auto schemes = c.format->strings("/checkpoint_scheme_names");
  const auto& ck = d.query.model ? d.query.model->checkpoint : std::nullopt;
  if (ck && ck->format == c.format->id)
    checks.push_back(fmt::format("checked: the checkpoint in {} is {} ({}) [{}]", ck->path, c.format->id, ck->matched_by, c.format->id));
  else if (!schemes.empty())
    checks.push_back(fmt::format("read the checkpoint config's quantization scheme: expect {} [{}]",
                                 fmt::join(schemes, " / "), c.format->id));
  for (const auto& s : c.engine->data.value("startup_checks", json::array())) {
    std::string hook = s.value("command", s.value("log_line", std::string()));
    checks.push_back(fmt::format("{}{} [{}]", s["text"].get<std::string>(), hook.empty() ? "" : " — `" + hook + "`", c.engine->id));
  }
}

std::string cite(const json& source) {
  std::string version = source.value("version", std::string());
  return source.value("title", std::string()) + (version.empty() ? "" : " @ " + version);
}

// The engine's docs (or another version of its code) disagree with the entry
// its code was read from: both sides are shown. A dispute about support makes the
// candidate contested; one about which kernel runs is said, not contested.
void dispute(Candidate& c, const json& entry) {
  const json& d = entry["disputed"];
  std::string code = entry.contains("source") ? cite(entry["source"]) : "its kernel selection";
  std::string both = fmt::format("{}: {} [{}] — yet {} picks {} [{}]", c.engine->id, d["says"].get<std::string>(),
                                 cite(d["source"]), c.engine->id, c.kernel->id, code);
  if (d.value("about", "support") == "kernel") {
    c.why.push_back("Rule 2 — which kernel runs is disputed: " + both);
    return;
  }
  c.conflicts.push_back(both);
  c.warnings.push_back({"rule-1", "major",
                        fmt::format("contested: {}'s docs and code disagree about {} on this target — both sides cited", c.engine->id,
                                    c.format->id), false, ""});
}

// The unquantized baseline runs where the target computes its dtype natively.
bool resolve_baseline(Deliberation& d, Candidate& c) {
  const Record& t = *d.query.target;
  std::string dtype = c.format->str("compute_dtype");
  c.rules.push_back("rule-2");
  if (!rule_util::target_has_dtype(t, dtype)) {
    auto have = t.strings("/tensor_core_precisions");
    d.excluded.push_back({c.format->id, c.engine->id, "rule-2",
                          fmt::format("{} computes no {} natively (matrix units: {}); the model is served in another 16-bit dtype there",
                                      t.id, dtype, have.empty() ? "none recorded" : fmt::format("{}", fmt::join(have, ", "))),
                          {t.id}});
    return false;
  }
  c.path = "native";
  c.evidence.push_back(t.id);
  c.why.push_back(fmt::format("Rule 2 — {} serves the model unquantized in {}, which {} computes natively", c.engine->id, dtype, t.id));
  return true;
}

// A matrix cell says yes but no kernel_selection entry names the kernel: the
// path follows the target's dtypes, and a W8A8/W4A4 format on a target without
// the matrix unit for it is not assumed to run at all.
bool unnamed_kernel(Deliberation& d, Candidate& c) {
  const Record& t = *d.query.target;
  auto missing = rule_util::missing_precisions(t, *c.format);
  const MatrixCell& cell = c.cells[0];
  if (!weight_only(*c.format) && !missing.empty()) {
    d.unknowns.push_back(fmt::format("{} on {}: {} marks {} {} for {} as a whole, but {} has no {} matrix unit and no "
                                     "kernel_selection entry serves it there: whether (and how) it is served is unrecorded",
                                     c.engine->id, c.format->id, cell.matrix, cell.column, cell.cell, cell.row, t.id,
                                     fmt::join(missing, "/")));
    return false;
  }
  c.path = weight_only(*c.format) ? "dequant" : "native";
  d.unknowns.push_back(fmt::format("{} on {}: the matrix says yes but no kernel_selection entry names the kernel",
                                   c.engine->id, c.format->id));
  return true;
}

bool resolve_kernel(Deliberation& d, Candidate& c) {
  if (is_baseline(*c.format)) return resolve_baseline(d, c);
  rule_util::KernelPick pick = rule_util::pick_kernel(d.graph, *c.engine, *c.format, d.query);
  c.kernel = pick.kernel;
  c.rules.push_back("rule-2");
  if (!c.kernel && c.cells.empty()) {
    d.excluded.push_back({c.format->id, c.engine->id, "rule-2",
                          fmt::format("{}'s kernel selection has no entry that runs {} on {}", c.engine->id, c.format->id,
                                      d.query.target->id), {c.engine->id}});
    return false;
  }
  if (!c.kernel) return unnamed_kernel(d, c);
  c.path = path_for(*c.format, *c.kernel, *d.query.target);
  c.evidence.push_back(c.engine->id);
  c.evidence.push_back(c.kernel->id);
  c.why.push_back(fmt::format("Rule 2 — on {} {} picks {} ({} path)", d.query.target->id, c.engine->id, c.kernel->id, c.path));
  if (pick.entry->value("fallback", false)) {
    c.fallback_kernel = true;
    c.why.push_back(fmt::format("Rule 2 — {} is {}'s fallback for {} here: its specialised kernels do not apply on {}", c.kernel->id,
                                c.engine->id, c.format->id, d.query.target->id));
  }
  if (pick.entry->contains("disputed")) dispute(c, *pick.entry);
  return true;
}

// Experimental, plugin and deprecated serving paths say so (engine `maturity`).
void attach_maturity(Deliberation& d, Candidate& c) {
  auto m = rule_util::maturity_of(*c.engine, *c.format, *d.query.target, d.query.accelerator);
  c.maturity = m.level;
  c.maturity_reason = m.reason;
  if (m.level == "mainline") return;
  c.why.push_back(fmt::format("serving path: {} in {} — {}", m.level, c.engine->id, m.reason));
  c.warnings.push_back({"maturity", m.level == "plugin" || m.level == "unlisted" ? "minor" : "major",
                        fmt::format("{}'s {} path is {}: {}", c.engine->id, c.format->id, m.level, m.reason), false, ""});
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
      attach_maturity(d, c);
      add_conflicts(d, c);
      warn_emulated(c);
      GotchaScope scope{c.format, d.query.target, c.engine, c.kernel, d.query.accelerator};
      for (auto& w : matching_gotchas(d.graph, scope, d.query)) c.warnings.push_back(w);
      if (!is_baseline(*c.format)) add_checks(d, c, c.checks);
    }
    kept.push_back(std::move(c));
  }
  d.candidates = std::move(kept);
}

}  // namespace qsel
