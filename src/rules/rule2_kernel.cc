// Rule 2 — verify which kernel is actually running. Name the kernel the engine
// picks on this target (first matching kernel_selection entry), derive the path
// (native, dequant, emulated), keep conflicts between records open, attach the
// matching gotchas and the post-deploy checks that cost nothing.
#include <algorithm>

#include <fmt/format.h>

#include "qsel/core/citation.h"
#include "qsel/rules/gotchas.h"
#include "qsel/core/json_number.h"
#include "qsel/graph/selector.h"
#include "qsel/rules/rules.h"
#include "qsel/rules/rule_support.h"

namespace qsel {
using nlohmann::json;
namespace {

// A weight-only checkpoint runs natively only through a kernel that quantizes the activations itself
// into precisions the target's tensor cores multiply (`computes_in`); otherwise it is dequantized.
bool computes_natively(const Record& kernel, const Record& target) {
  const auto precisions = kernel.strings("/computes_in");
  if (kernel.str("mode") != "native" || precisions.empty()) return false;
  const auto have = target.strings("/tensor_core_precisions");
  return std::all_of(precisions.begin(), precisions.end(), [&](const std::string& p) { return rule_util::contains(have, p); });
}

std::string path_for(const Record& format, const Record& kernel, const Record& target) {
  if (weight_only(format)) return computes_natively(kernel, target) ? "native" : "dequant";
  if (kernel.str("mode") == "native" && rule_util::target_has_precisions(target, format)) return "native";
  return "emulated";
}

void add_conflicts(Deliberation& d, Candidate& c) {
  if (c.path != "native") return;
  const Record& t = *d.query.target;
  std::size_t before = c.conflicts.size();  // Rule 1's, about a table, are not the kernels' to warn of
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
  if (c.conflicts.size() > before)
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
  for (const auto& s : array_field(c.engine->data, "startup_checks")) {
    std::string hook = s.value("command", s.value("log_line", std::string()));
    checks.push_back(fmt::format("{}{} [{}]", s["text"].get<std::string>(), hook.empty() ? "" : " — `" + hook + "`", c.engine->id));
  }
}

// The engine's `backends` entry for a backend id, or null.
const json* backend_record(const Record& engine, const std::string& id) {
  if (!engine.data.contains("backends")) return nullptr;
  for (const auto& b : engine.data.at("backends"))
    if (b.value("id", std::string()) == id) return &b;
  return nullptr;
}

// A source as a citation: its title, then the commit (or version) and the date it was read at.
std::string cite(const json& source) {
  std::string version = source.value("version", std::string());
  std::string commit = source.value("commit", std::string());
  if (version.empty() && !commit.empty()) version = "commit " + commit.substr(0, 12);
  std::string date = source.value("date", std::string());
  if (!date.empty()) version += (version.empty() ? "" : ", ") + std::string(source.value("dated", std::string()) == "read" ? "read " : "") + date;
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
  // Engine code at a commit outranks the engine's docs (docs/sources.md, order): the docs' claim stays contested,
  // and the verdict follows the code.
  if (entry.contains("source") && read_citation(entry["source"]).tier == "engine-code" && read_citation(d["source"]).tier != "engine-code")
    ++c.outranked;
  c.warnings.push_back({"rule-1", "major",
                        fmt::format("contested: {}'s docs and code disagree about {} on this target — both sides cited", c.engine->id,
                                    c.format->id), false, ""});
}

// The engine refuses float16 for the model's architecture (model_support.float16_refused: vLLM's Gemma 2/3, GLM-4) and would
// have to run it in float16 here: the part has no bfloat16, or the kernel takes float16 activations alone. Why, or "".
std::string float16_refusal(const Deliberation& d, const Candidate& c) {
  if (!d.query.model || !c.engine || d.query.model->architecture.empty()) return "";
  const json refused = object_field(object_field(c.engine->data, "model_support"), "float16_refused");
  const json archs = array_field(refused, "architectures");
  if (std::none_of(archs.begin(), archs.end(), [&](const json& a) { return a == d.query.model->architecture; })) return "";
  const Record& t = *d.query.target;
  std::string source = refused.contains("source") ? " [" + cite(refused["source"]) + "]" : "";
  if (!rule_util::target_has_dtype(t, "bf16"))
    return fmt::format("{} refuses float16 for {} (numerical instability), and {} has no bfloat16: the model does not load{}",
                       c.engine->id, d.query.model->architecture, t.id, source);
  if (c.kernel) {
    const auto acts = c.kernel->strings("/activation_dtypes");
    if (!acts.empty() && !rule_util::contains(acts, "bf16"))
      return fmt::format("{} refuses float16 for {} (numerical instability), and {} takes float16 activations alone{}", c.engine->id,
                         d.query.model->architecture, c.kernel->id, source);
  }
  return "";
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
  if (std::string refused = float16_refusal(d, c); !refused.empty() && dtype == "fp16") {  // the fp16 baseline of a part without bf16
    d.excluded.push_back({c.format->id, c.engine->id, "rule-2", refused, {c.engine->id}});
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
// The engine's own entry for the format on this platform (no narrower target list) names a
// kernel whose runs_on leaves this target out: the engine's code has no path for it here.
const Record* refusing_kernel(const Deliberation& d, const Candidate& c) {
  const Record& t = *d.query.target;
  for (const auto& e : array_field(c.engine->data, "kernel_selection")) {
    auto formats = array_field(e, "formats");
    if (std::find(formats.begin(), formats.end(), json(c.format->id)) == formats.end()) continue;
    const json when = object_field(e, "when");
    auto platforms = array_field(when, "platforms");
    if (when.contains("targets") || std::find(platforms.begin(), platforms.end(), json(t.str("platform"))) == platforms.end()) continue;
    const Record* k = d.graph.find(e.value("kernel", ""));
    if (k && k->data.contains("runs_on") && !selector_matches(k->data["runs_on"], t)) return k;
  }
  return nullptr;
}

bool unnamed_kernel(Deliberation& d, Candidate& c) {
  const Record& t = *d.query.target;
  auto missing = rule_util::missing_precisions(t, *c.format);
  const MatrixCell& cell = c.cells[0];
  if (const Record* k = refusing_kernel(d, c)) {
    std::string needs = k->str("requires");
    d.excluded.push_back({c.format->id, c.engine->id, "rule-2",
                          fmt::format("{} marks {} {} for {} as a whole, but {}'s path for it on {} is {}, which does not run on {}{}",
                                      cell.matrix, cell.column, cell.cell, cell.row, c.engine->id, t.str("platform"), k->id, t.id,
                                      needs.empty() ? "" : " (" + needs + ")"),
                          {c.engine->id, k->id}});
    return false;
  }
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

// The backends an engine reaches this target through: those of the kernels its
// kernel_selection runs here (llama.cpp: HIP and Vulkan on an AMD GPU), else the
// target's platform alone.
std::vector<std::string> engine_backends_here(const Deliberation& d, const Record& engine) {
  std::vector<std::string> out;
  const Record& t = *d.query.target;
  if (engine.data.contains("backends"))
    for (const auto& entry : array_field(engine.data, "kernel_selection")) {
      if (entry.contains("when") && !selector_matches(entry["when"], t)) continue;
      const Record* k = d.graph.find(entry.value("kernel", std::string()));
      if (!k || !k->data.contains("backends") || !selector_matches(object_field(k->data, "runs_on"), t)) continue;
      rule_util::add_unique(out, rule_util::kernel_backend(k, t));
    }
  if (out.empty()) out.push_back(t.str("platform"));
  return out;
}

// The engine selects a kernel that raises on this target (a kernel exclusion marked
// fails): no deployment, and no fall-through. A lower source that says otherwise is kept.
void refuse_failing(Deliberation& d, const Candidate& c, const rule_util::KernelPick& pick) {
  const json& ex = *pick.failure;
  Exclusion e{c.format->id, c.engine->id, "rule-2",
              fmt::format("{} selects {} for {} on {}, and it fails there: {}{}", c.engine->id, pick.failing->id, c.format->id,
                          d.query.target->id, ex.value("reason", std::string()),
                          ex.contains("source") ? " [" + cite(ex["source"]) + "]" : ""),
              {c.engine->id, pick.failing->id}, {}};
  if (ex.contains("disputed"))
    e.conflicts.push_back(fmt::format("{} says: {} [{}] — the engine code above outranks it", pick.failing->id,
                                      ex["disputed"].value("says", std::string()), cite(ex["disputed"]["source"])));
  d.excluded.push_back(std::move(e));
}

// Resolves the candidate's kernels: one candidate per backend the engine builds for
// (llama.cpp CUDA, HIP, Vulkan …), or the one kernel an engine without backends picks.
// Appends what stands to `out`; says why when nothing does.
void resolve_kernels(Deliberation& d, Candidate c, std::vector<Candidate>& out) {
  const Record& t = *d.query.target;
  if (is_baseline(*c.format)) {
    if (!resolve_baseline(d, c)) return;
    for (const auto& b : engine_backends_here(d, *c.engine)) {  // an engine built per backend serves it through each
      Candidate k = c;
      k.backend = b;
      out.push_back(std::move(k));
    }
    return;
  }
  auto picks = rule_util::pick_kernels(d.graph, *c.engine, *c.format, d.query);
  if (!picks.empty() && picks.front().failing) {
    refuse_failing(d, c, picks.front());
    return;
  }
  if (picks.empty()) {
    c.rules.push_back("rule-2");
    if (c.cells.empty()) {
      d.excluded.push_back({c.format->id, c.engine->id, "rule-2",
                            fmt::format("{}'s kernel selection has no entry that runs {} on {}", c.engine->id, c.format->id, t.id),
                            {c.engine->id}});
      return;
    }
    c.backend = t.str("platform");
    if (unnamed_kernel(d, c)) out.push_back(std::move(c));
    return;
  }
  for (const auto& pick : picks) {
    Candidate k = c;
    k.kernel = pick.kernel;
    k.backend = pick.backend;
    if (std::string refused = float16_refusal(d, k); !refused.empty()) {
      d.excluded.push_back({k.format->id, k.engine->id, "rule-2", refused, {k.engine->id, k.kernel->id}});
      continue;
    }
    k.rules.push_back("rule-2");
    k.path = path_for(*k.format, *k.kernel, t);
    k.evidence.push_back(k.engine->id);
    k.evidence.push_back(k.kernel->id);
    if (const json* b = backend_record(*k.engine, k.backend))
      k.why.push_back(fmt::format("Rule 2 — on {} {}'s {} backend picks {} ({} path)", t.id, k.engine->id, b->value("name", k.backend),
                                  k.kernel->id, k.path));
    else
      k.why.push_back(fmt::format("Rule 2 — on {} {} picks {} ({} path)", t.id, k.engine->id, k.kernel->id, k.path));
    k.kernel_launch_flags = pick.entry->value("launch_flags", "");
    if (pick.entry->value("fallback", false)) {
      k.fallback_kernel = true;
      k.why.push_back(fmt::format("Rule 2 — {} is {}'s fallback for {} here: its specialised kernels do not apply on {}", k.kernel->id,
                                  k.engine->id, k.format->id, t.id));
    }
    if (pick.entry->contains("disputed")) dispute(k, *pick.entry);
    out.push_back(std::move(k));
  }
}

// --backend: a candidate through another backend is left out, and the answer says so.
bool backend_allowed(Deliberation& d, const Candidate& c) {
  const auto& allowed = d.query.backends;
  if (allowed.empty() || rule_util::contains(allowed, c.backend)) return true;
  d.excluded.push_back({c.format->id, c.engine->id, "rule-2",
                        fmt::format("--backend {}: {} serves {} on {} through its {} backend", fmt::join(allowed, ","), c.engine->id,
                                    c.format->id, d.query.target->id, c.backend.empty() ? "unnamed" : c.backend),
                        {c.engine->id}});
  return false;
}

// A recorded correctness trap (a gotcha whose effect is wrong output, with no flag
// condition) on one backend of an engine, while another backend of the same engine
// serves the same format here without one: that path is no deployment, and is left out.
void drop_wrong_output_paths(Deliberation& d) {
  auto wrong = [](const Candidate& c) -> const Warning* {
    for (const auto& w : c.warnings)
      if (w.effect == "wrong-output" && w.condition.empty()) return &w;
    return nullptr;
  };
  struct Dropped {
    const Record* engine;
    std::string backend, other, trap;
    std::vector<std::string> formats;
  };
  std::vector<Dropped> dropped;  // one exclusion per engine and backend, naming its formats
  std::vector<Candidate> kept;
  for (auto& c : d.candidates) {
    const Warning* w = c.engine ? wrong(c) : nullptr;
    const Candidate* other = nullptr;
    if (w)
      for (const auto& o : d.candidates)
        if (&o != &c && o.engine == c.engine && o.format == c.format && o.backend != c.backend && !wrong(o)) other = &o;
    if (!other) {
      kept.push_back(std::move(c));
      continue;
    }
    auto it = std::find_if(dropped.begin(), dropped.end(), [&](const Dropped& x) { return x.engine == c.engine && x.backend == c.backend; });
    if (it == dropped.end()) it = dropped.insert(dropped.end(), {c.engine, c.backend, other->backend, w->id, {}});
    it->formats.push_back(c.format->id);
  }
  d.candidates = std::move(kept);
  for (const auto& x : dropped)
    d.excluded.push_back({"", x.engine->id, "rule-2",
                          fmt::format("its {} backend on {} carries a wrong-output trap [{}] while its {} backend serves the same "
                                      "formats here without one, so the {} path is not offered ({} format{}: {}); --backend {} asks "
                                      "for it anyway",
                                      x.backend, d.query.target->id, x.trap, x.other, x.backend, x.formats.size(),
                                      x.formats.size() == 1 ? "" : "s", fmt::join(x.formats, ", "), x.backend),
                          {x.trap}});
}

// Without --backend, an engine built per backend is offered through one backend per format:
// the first its kernel_selection takes here (the vendor's own: CUDA, HIP, Metal) that a
// wrong-output trap did not leave out. The others are named once, in a note: --backend
// asks for them. With --backend, every backend it names stays, to be compared.
void one_backend_each(Deliberation& d) {
  if (!d.query.backends.empty()) return;
  std::vector<Candidate> kept;
  std::vector<std::pair<const Record*, std::vector<std::string>>> others;  // engine, the backends left out
  for (auto& c : d.candidates) {
    bool second = c.engine && std::any_of(kept.begin(), kept.end(), [&](const Candidate& k) {
                    return k.engine == c.engine && k.format == c.format && k.backend != c.backend;
                  });
    if (!second) {
      kept.push_back(std::move(c));
      continue;
    }
    auto it = std::find_if(others.begin(), others.end(), [&](const auto& o) { return o.first == c.engine; });
    if (it == others.end()) it = others.insert(others.end(), {c.engine, {}});
    rule_util::add_unique(it->second, c.backend);
  }
  d.candidates = std::move(kept);
  for (const auto& [engine, backends] : others)
    d.notes.push_back(fmt::format("{} is offered through one backend per format, the first its kernel selection takes on {}; "
                                  "its {} build{} also serve{} these formats here: --backend {} to compare",
                                  engine->id, d.query.target->id, fmt::join(backends, ", "), backends.size() == 1 ? "" : "s",
                                  backends.size() == 1 ? "s" : "", fmt::join(backends, ",")));
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
  std::vector<Candidate> resolved;
  for (auto& c : d.candidates) {
    if (!c.engine) {
      resolved.push_back(std::move(c));
      continue;
    }
    resolve_kernels(d, std::move(c), resolved);
  }
  std::vector<Candidate> kept;
  for (auto& c : resolved) {
    if (c.engine) {
      if (!backend_allowed(d, c)) continue;
      attach_maturity(d, c);
      add_conflicts(d, c);
      warn_emulated(c);
      GotchaScope scope{c.format, d.query.target, c.engine, c.kernel, d.query.accelerator, c.backend};
      for (auto& w : matching_gotchas(d.graph, scope, d.query)) c.warnings.push_back(w);
      if (!is_baseline(*c.format)) add_checks(d, c, c.checks);
    }
    kept.push_back(std::move(c));
  }
  d.candidates = std::move(kept);
  drop_wrong_output_paths(d);
  one_backend_each(d);
}

}  // namespace qsel
