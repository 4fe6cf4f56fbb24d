#include "qsel/rules/verdict.h"

#include <algorithm>

#include <fmt/format.h>

#include "qsel/core/json_number.h"
#include "qsel/rules/launch.h"
#include "qsel/rules/rule_support.h"
#include "qsel/rules/rules.h"

namespace qsel {
namespace {

using rule_util::contains;

std::vector<const Candidate*> candidates_of(const Deliberation& d, const Record& f) {
  std::vector<const Candidate*> out;
  for (const auto& c : d.candidates)
    if (c.format == &f && c.engine) out.push_back(&c);
  return out;
}

// The format record itself lists one of the parts natively (its toolkit's own path).
bool listed_native(const Deliberation& d, const Record& f) {
  auto native = f.strings("/native_support");
  for (const Record* a : parts_of(d))
    if (contains(native, a->id)) return true;
  return false;
}

std::string path_line(const Candidate& c) {
  return fmt::format("{} picks {} ({} path)", c.engine->id, c.kernel ? c.kernel->id : "an unrecorded kernel", c.path);
}

// The path the format record's own lists give on the query's parts (no attention backend recorded).
std::string listed_kv_path(const Deliberation& d, const Record& f) {
  const auto parts = parts_of(d);
  const auto listed_emulated = f.strings("/emulated_support");
  bool emulated = std::any_of(parts.begin(), parts.end(), [&](const Record* a) { return contains(listed_emulated, a->id); });
  return listed_native(d, f) ? "native" : emulated ? "emulated" : "dequant";
}

int kv_path_rank(const std::string& path) { return path == "native" ? 0 : path == "dequant" ? 1 : path == "emulated" ? 2 : 3; }

// The gate of a kernel_selection entry, as a reader would check it: its targets, capability floor, platforms.
std::string kv_entry_gate(const nlohmann::json& entry) {
  const auto& when = object_field(entry, "when");
  std::vector<std::string> parts;
  if (when.contains("targets")) parts.push_back(fmt::format("{}", fmt::join(when["targets"].get<std::vector<std::string>>(), "/")));
  if (when.contains("min_cc")) parts.push_back(fmt::format("compute capability >= {}", when["min_cc"].dump()));
  if (when.contains("platforms")) parts.push_back(fmt::format("{}", fmt::join(when["platforms"].get<std::vector<std::string>>(), "/")));
  return parts.empty() ? "every target" : fmt::format("{}", fmt::join(parts, ", "));
}

// A KV-cache format is no weight candidate: the engines that run here and store their cache in
// it say the verdict, as Rule 6 offers it to their candidates in recommend. Where an engine's
// kernel_selection names the attention backend that reads the cache here, that backend's path
// counts (the best of them is the verdict); the format record's lists speak only when no engine
// has a recorded backend here.
Verdict kv_cache_verdict(const Deliberation& d, const Record& f) {
  Verdict v;
  const auto paths = kv_cache_paths(d, f);
  for (const auto& p : paths)
    v.reasons.push_back(p.path == "unsupported" ? p.why
                                                : fmt::format("{} stores its KV cache as {} here (Rule 6 offers it with {}'s candidates): {}",
                                                              p.engine->id, f.id, p.engine->id, p.why));
  if (v.reasons.empty()) {
    v.value = "unknown";
    v.reasons.push_back(fmt::format("no engine record that runs on {} stores its KV cache as {}", d.query.target->id, f.id));
    return v;
  }
  if (std::all_of(paths.begin(), paths.end(), [](const KvPath& p) { return p.path == "unsupported"; })) {
    v.value = "unsupported";
    return v;
  }
  std::string best;
  for (const auto& p : paths)
    if (p.kernel && (best.empty() || kv_path_rank(p.path) < kv_path_rank(best))) best = p.path;
  if (!best.empty()) {
    v.value = best;
    if (best != "native" && listed_native(d, f))
      v.reasons.push_back(fmt::format("{} lists this part in native_support (the hardware converts its 8-bit values), but the "
                                      "attention backends the engines pick here widen the cache to 16 bits in the kernel",
                                      f.id));
    return v;
  }
  v.value = listed_kv_path(d, f);
  if (v.value != "native")
    v.reasons.push_back(fmt::format("{} does not list this part in native_support: the cache is stored in {} bits and widened "
                                    "in the attention kernel",
                                    f.id, f.data.value("kv_bits", 0)));
  return v;
}

}  // namespace

std::vector<const Record*> kv_cache_engines(const Deliberation& d, const Record& kv_format) {
  std::vector<const Record*> out;
  for (const Record* e : d.graph.of_kind(Kind::Engine)) {
    if (!rule_util::engine_asked(d.query, *e)) continue;
    if (rule_util::engine_runs_on(*e, *d.query.target) && contains(served_formats(*e), kv_format.id)) out.push_back(e);
  }
  return out;
}

std::vector<KvPath> kv_cache_paths(const Deliberation& d, const Record& kv_format) {
  std::vector<KvPath> out;
  const Record& t = *d.query.target;
  for (const Record* e : kv_cache_engines(d, kv_format)) {
    KvPath p;
    p.engine = e;
    if (const auto* refusal = kv_cache_refusal(*e, &kv_format, &t)) {
      // The engine records that none of its backends takes this cache here (launch kv_cache refused), as recommend reads it.
      p.path = "unsupported";
      p.why = fmt::format("{} has no attention backend that takes {} on {}{}", e->id, kv_format.id, t.id,
                          refusal->value("note", "").empty() ? "" : ": " + refusal->value("note", ""));
      out.push_back(std::move(p));
      continue;
    }
    auto pick = rule_util::pick_kernel(d.graph, *e, kv_format, d.query);
    if (pick.kernel) {
      p.kernel = pick.kernel;
      p.entry = pick.entry;
      bool computes = pick.kernel->str("mode") == "native" && rule_util::target_has_precisions(t, kv_format);
      p.path = computes ? "native" : "dequant";
      p.why = fmt::format("on {} {} picks the {} attention backend ({}; entry gated on {}) — {}", t.id, e->id, pick.kernel->id,
                          pick.kernel->name, kv_entry_gate(*pick.entry),
                          computes ? "it computes attention on the 8-bit values (native path)"
                                   : "it reads the 8-bit cache and widens it to 16 bits in the kernel (dequant path)");
    } else {
      p.path = listed_kv_path(d, kv_format);
      p.why = fmt::format("no kernel_selection entry of {} names an attention backend that reads a {} cache on {}; the path "
                          "follows {}'s native/emulated lists",
                          e->id, kv_format.id, t.id, kv_format.id);
    }
    out.push_back(std::move(p));
  }
  return out;
}

std::vector<const Record*> parts_of(const Deliberation& d) {
  if (d.query.accelerator) return {d.query.accelerator};
  std::vector<const Record*> out;
  for (const Record* a : d.graph.of_kind(Kind::Accelerator))
    if (a->str("target") == d.query.target->id) out.push_back(a);
  return out;
}

namespace {

// The kernels `engine` names for `f` where its selection entry holds on this target: `some_run` when one of them runs
// here, else each that does not, with what its runs_on asks.
void kernels_here(const Deliberation& d, const Record& engine, const Record& f, bool& some_run, std::vector<std::string>& need) {
  const Record& t = *d.query.target;
  for (const auto& entry : array_field(engine.data, "kernel_selection")) {
    const auto& fs = array_field(entry, "formats");
    if (std::find(fs.begin(), fs.end(), nlohmann::json(f.id)) == fs.end()) continue;
    if (entry.contains("when") && !selector_matches(entry["when"], t)) continue;
    const Record* k = entry.contains("kernel") && entry["kernel"].is_string() ? d.graph.find(entry["kernel"].get<std::string>()) : nullptr;
    if (!k) continue;
    const auto& runs_on = object_field(k->data, "runs_on");
    if (selector_matches(runs_on, t)) {
      some_run = true;
      continue;
    }
    double min_cc = number_or(runs_on, "min_cc");
    rule_util::add_unique(need, min_cc > 0 ? fmt::format("{} ({}) needs compute capability {:.1f} or more; {} is {:.1f}", k->id, engine.id, min_cc,
                                                         t.id, number_or(t.data, "compute_capability"))
                                           : fmt::format("{} ({}): its runs_on leaves out {}", k->id, engine.id, t.id));
  }
}

}  // namespace

// An engine that once served the format through a path it has since removed (engine `removed`): the older
// doc that marks it served is shown beside the one that says the path is gone, so that neither is dropped.
static void removed_lines(const Record& engine, const Record& f, std::vector<std::string>& out) {
  auto it = engine.data.find("removed");
  if (it == engine.data.end() || !it->is_array()) return;
  for (const json& r : *it) {
    auto formats = r.value("formats", json::array());
    if (std::find(formats.begin(), formats.end(), f.id) == formats.end()) continue;
    const json& was = object_field(r, "was");
    const json& gone = object_field(r, "source");
    out.push_back(fmt::format("{} served {} through {}, which it has since removed: \"{}\" ({}); an older doc still marks it served "
                              "({}), kept as the claim of a release that is gone", engine.id, f.id, r.value("path", std::string()),
                              gone.value("quote", std::string()), gone.value("url", std::string()), was.value("url", std::string())));
  }
}

Verdict verdict_for(const Deliberation& d, const Record& f) {
  if (f.str("regime") == "kv-cache") return kv_cache_verdict(d, f);
  Verdict v;
  auto cands = candidates_of(d, f);
  for (const Candidate* c : cands) v.reasons.push_back(path_line(*c));
  auto any = [&](const char* path) {
    return std::any_of(cands.begin(), cands.end(), [&](const Candidate* c) { return c->path == path; });
  };
  // Native when an engine runs it natively with no record against it (a build for this
  // target); contested when every native path has a record saying it does not run.
  // A conflict the engine's own code outranks (its docs disagree) is a contested claim, shown, not the verdict.
  auto standing = [](const Candidate* c) { return c->disputed(); };
  bool clean_native = std::any_of(cands.begin(), cands.end(), [&](const Candidate* c) { return c->path == "native" && !standing(c); });
  bool contested = std::any_of(cands.begin(), cands.end(), [&](const Candidate* c) { return standing(c); });
  for (const Candidate* c : cands)
    if (c->outranked_only() && c->engine)
      v.reasons.push_back(fmt::format("{}'s code at a commit outranks its docs, which disagree; the docs' claim is kept as contested: {}",
                                      c->engine->id, fmt::join(c->conflicts, "; ")));
  if (clean_native) v.value = "native";
  else if (contested) v.value = "contested";
  else if (any("native")) v.value = "native";
  else if (any("dequant")) v.value = "dequant";
  else if (any("emulated")) v.value = "emulated";
  if (!v.value.empty()) {
    if (listed_native(d, f) && v.value != "native")
      v.reasons.push_back(fmt::format("{} lists this part in native_support: its toolkit's own kernels run here, "
                                      "through a {} path", f.id, v.value));
    return v;
  }
  bool refused = std::any_of(d.excluded.begin(), d.excluded.end(), [&](const Exclusion& e) { return e.format == f.id; });
  // Every engine that serves the format runs on other platforms only (ExLlamaV3: CUDA): the engine records refuse it here.
  std::vector<std::string> elsewhere;
  bool served_here = false;
  for (const Record* e : d.graph.of_kind(Kind::Engine)) {
    if (!rule_util::engine_asked(d.query, *e) || !contains(served_formats(*e), f.id)) continue;
    if (rule_util::engine_runs_on(*e, *d.query.target)) served_here = true;
    else elsewhere.push_back(fmt::format("{} ({})", e->id, fmt::join(e->strings("/platforms"), ", ")));
  }
  // The engines the user named serve no such format at all (TensorRT-LLM and INT8 W8A8): unsupported by them.
  std::vector<std::string> not_served;
  for (const auto& id : d.query.engines)
    if (const Record* e = d.graph.find(id); e && !contains(served_formats(*e), f.id)) not_served.push_back(id);
  if (!refused && !served_here && elsewhere.empty() && !d.query.engines.empty() && not_served.size() == d.query.engines.size()) {
    refused = true;
    v.reasons.push_back(fmt::format("{} serve{} no {}: it is not among {} formats", fmt::join(not_served, ", "),
                                    not_served.size() == 1 ? "s" : "", f.id, not_served.size() == 1 ? "its" : "their"));
    for (const auto& id : not_served)
      if (const Record* e = d.graph.find(id)) removed_lines(*e, f, v.reasons);
  }
  if (!refused && !served_here && !elsewhere.empty()) {
    refused = true;
    v.reasons.push_back(fmt::format("every engine that serves {} runs elsewhere: {}; {} is a {} target", f.id, fmt::join(elsewhere, ", "),
                                    d.query.target->id, d.query.target->str("platform")));
  }
  // The engines that serve it here name kernels for it, and none of those runs on this part (ExLlamaV3's EXL3 GEMM
  // needs compute capability 8.0 for cp.async): a build for the part would not help, the kernels' own records refuse it.
  if (!refused && served_here) {
    bool some_run = false;
    std::vector<std::string> need;
    for (const Record* e : d.graph.of_kind(Kind::Engine))
      if (rule_util::engine_asked(d.query, *e) && contains(served_formats(*e), f.id) && rule_util::engine_runs_on(*e, *d.query.target))
        kernels_here(d, *e, f, some_run, need);
    if (!some_run && !need.empty()) {
      refused = true;
      v.reasons.push_back(fmt::format("every kernel recorded for {} runs elsewhere: {}", f.id, fmt::join(need, "; ")));
    }
  }
  v.value = refused ? "unsupported" : "unknown";
  for (const auto& e : d.excluded)
    if (e.format == f.id || e.format.empty())
      v.reasons.push_back(fmt::format("{}{}: {}", e.engine.empty() ? "" : e.engine + ", ", e.rule, e.reason));
  for (const auto& u : d.unknowns)
    if (u.find(" " + f.id + ":") != std::string::npos || u.find(" on " + f.id) != std::string::npos) v.reasons.push_back(u);
  if (!refused) v.reasons.push_back("no engine record serves it on this target and no record refuses it");
  return v;
}

Verdict format_verdict(const Graph& g, Query q, const Record& format) {
  q.formats = {format.id};
  return verdict_for(deliberate(g, q), format);
}

}  // namespace qsel
