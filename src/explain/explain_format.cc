// explain FORMAT --on TARGET: every record's say about the pair, then the verdict.
#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "qsel/core/citation.h"
#include "qsel/core/json_number.h"
#include "qsel/explain/explain.h"
#include "qsel/rules/quality.h"
#include "qsel/sizing/memory.h"
#include "qsel/rules/gotchas.h"
#include "qsel/rules/rules.h"
#include "qsel/rules/rests_on.h"
#include "qsel/rules/verdict.h"
#include "qsel/rules/rule_support.h"

namespace qsel {
using ojson = nlohmann::ordered_json;
using nlohmann::json;
namespace {

using rule_util::contains;

ojson format_lists(const Deliberation& d, const Record& f) {
  ojson native = ojson::array(), emulated = ojson::array();
  for (const Record* a : parts_of(d)) {
    if (contains(f.strings("/native_support"), a->id)) native.push_back(a->id);
    if (contains(f.strings("/emulated_support"), a->id)) emulated.push_back(a->id);
  }
  return {{"native_on", native}, {"emulated_on", emulated}};
}

// The lower sources the format record keeps under contested_by that bear on this
// target: list claims naming one of its parts, and every value claim.
ojson contested_claims(const Deliberation& d, const Record& f) {
  ojson out = ojson::array();
  std::vector<std::string> parts;
  for (const Record* a : parts_of(d)) parts.push_back(a->id);
  for (const auto& e : array_field(f.data, "contested_by")) {
    if (!e.is_object()) continue;
    ojson here = ojson::array();
    for (const auto& p : array_field(e, "parts"))
      if (p.is_string() && contains(parts, p.get<std::string>())) here.push_back(p.get<std::string>());
    if (e.contains("parts") && here.empty()) continue;
    const json& src = object_field(e, "source");
    std::string title = src.value("title", std::string());
    if (src.contains("section")) title += " " + src["section"].get<std::string>();
    if (is_census_note(src)) title = std::string(kCensusNotes) + " " + src.value("section", std::string());
    ojson c = {{"field", e.value("field", std::string())}, {"source", title}, {"tier", e.value("tier", std::string())},
               {"record_tier", e.value("record_tier", std::string())}, {"record_source", e.value("record_source", std::string())}};
    if (e.contains("parts")) {
      c["parts"] = here;
      c["listed"] = e.value("listed", false);
    } else {
      c["value"] = ojson::parse(e.value("value", json()).dump());
    }
    out.push_back(c);
  }
  return out;
}

// `kv_path`: the verdict, the path a KV-cache format's engines store it through here.
ojson engine_lines(const Deliberation& d, const Record& f, const std::string& kv_path) {
  ojson out = ojson::array();
  std::map<const Record*, std::string> read_at;  // the newest date each engine's facts were read at ("" when none is dated)
  for (const auto& c : d.candidates) {
    if (c.format != &f || !c.engine) continue;
    auto it = read_at.find(c.engine);
    if (it == read_at.end()) it = read_at.emplace(c.engine, freshness_of(c.engine->data).newest).first;
    ojson line = {{"engine", c.engine->id}, {"kernel", c.kernel ? ojson(c.kernel->id) : ojson()}, {"path", c.path},
                  {"why", c.why}, {"contested", c.contested()}, {"outranked", c.outranked_only()}, {"read_at", it->second}};
    // What the picked kernel needs beyond the part (an optional package, a library module, the checkpoint's
    // activations): the engine takes it only when that holds.
    if (c.kernel && !c.kernel->str("requires").empty()) line["requires"] = c.kernel->str("requires");
    out.push_back(line);
  }
  if (f.str("regime") == "kv-cache")  // no weight candidate: the engines that store their cache in it here
    for (const auto& p : kv_cache_paths(d, f)) {
      ojson line = {{"engine", p.engine->id}, {"kernel", p.kernel ? ojson(p.kernel->id) : ojson()},
                    {"path", p.kernel ? p.path : kv_path},
                    {"why", p.path == "unsupported"  // the engine records that none of its backends takes it here
                                ? ojson::array({p.why})
                                : ojson::array({fmt::format("stores its KV cache as {}; Rule 6 offers it with {}'s candidates", f.id,
                                                            p.engine->id),
                                                p.why})},
                    {"contested", false}, {"read_at", freshness_of(p.engine->data).newest}};
      if (p.kernel && !p.kernel->str("requires").empty()) line["requires"] = p.kernel->str("requires");
      out.push_back(line);
    }
  for (const auto& e : d.excluded)
    if (e.format == f.id && !e.engine.empty())
      out.push_back({{"engine", e.engine}, {"kernel", ojson()}, {"path", "excluded"}, {"why", ojson::array({e.reason})},
                     {"rule", e.rule}, {"contested", !e.conflicts.empty()}});
  return out;
}

// A dense format whose scheme a MoE format shares (moe: true, the same `scheme`): a MoE checkpoint in
// that scheme is the other format, with its own expert kernels, so the reader with such a model is sent
// there, with the models that ship it.
ojson moe_formats(const Graph& g, const Record& f, const Record& t) {
  ojson out = ojson::array();
  const std::string scheme = f.str("scheme");
  if (f.data.value("moe", false) || scheme.empty()) return out;
  for (const Record* o : g.of_kind(Kind::Format)) {
    if (o == &f || !o->data.value("moe", false) || o->str("scheme") != scheme) continue;
    std::vector<std::string> models;
    for (const Record* m : g.of_kind(Kind::Model))
      for (const auto& r : array_field(m->data, "releases"))
        if (r.is_object() && r.value("primary", false) && r.value("format", std::string()) == o->id) models.push_back(m->id);
    std::sort(models.begin(), models.end());
    std::string shipped = models.empty() ? "" : fmt::format(" ({} ship{} it)", fmt::join(models, ", "), models.size() == 1 ? "s" : "");
    out.push_back({{"format", o->id},
                   {"models", models},
                   {"statement", fmt::format("a mixture-of-experts checkpoint in the {} scheme is {}{}, a separate format whose experts "
                                             "take the engines' MoE kernels, not this path: qsel explain {} --on {}",
                                             scheme, o->id, shipped, o->id, t.id)}});
  }
  return out;
}

// The engines that serve no checkpoint in this format but carry its scheme in their own container (format `container_of`)
// (llama.cpp: an MXFP4 model as a GGUF MXFP4_MOE file): each such format with those engines and its own
// verdict here, so the reader is sent to the file the engine loads. Only the engines the query names,
// else every engine that runs on the target.
ojson container_formats(const Graph& g, const Record& f, const Record& t, const Query& q) {
  ojson out = ojson::array();
  const std::string scheme = f.str("scheme");
  std::map<const Record*, std::vector<std::string>> by_format;
  for (const Record* e : g.of_kind(Kind::Engine)) {
    if (!q.engines.empty() ? !contains(q.engines, e->id) : !rule_util::engine_runs_on(*e, t)) continue;
    const auto served = served_formats(*e);
    if (contains(served, f.id)) continue;
    for (const auto& id : served) {
      const Record* o = g.find(id);
      if (!o || o->kind != Kind::Format || o->str("scheme") == scheme || o->str("regime") == "kv-cache") continue;
      if (!contains(o->strings("/container_of"), f.id)) continue;  // the record says it carries this scheme, not merely "related"
      by_format[o].push_back(e->id);
    }
  }
  for (const auto& [o, engines] : by_format) {
    std::map<std::string, std::vector<std::string>> by_verdict;  // each engine's own verdict: its kernel decides
    for (const auto& e : engines) {
      Query asked = q;
      asked.engines = {e};
      const std::string v = format_verdict(g, asked, *o).value;
      by_verdict[v.empty() ? "unknown" : v].push_back(e);
    }
    for (const auto& [verdict, names] : by_verdict) {
      std::string engine_flags;
      for (const auto& e : names) engine_flags += " --engine " + e;
      out.push_back({{"format", o->id},
                     {"engines", names},
                     {"verdict", verdict},
                     {"statement", fmt::format("{} load{} this scheme as {}, verdict here {}: qsel explain {} --on {}{}",
                                               fmt::join(names, ", "), names.size() == 1 ? "s" : "", o->id, verdict, o->id, t.id,
                                               engine_flags)}});
    }
  }
  return out;
}

// The kernels an engine takes for the format here only under a serving fact qsel cannot see (a backend
// flag, a weight-only checkpoint): each flagged kernel_selection entry naming the format that the engine's
// own pick moves to once its flags hold, with what that kernel needs.
ojson flagged_paths(const Graph& g, const Deliberation& d, const Record& f, const Query& q) {
  ojson out = ojson::array();
  std::vector<const Record*> engines;
  for (const auto& c : d.candidates)
    if (c.format == &f && c.engine && std::find(engines.begin(), engines.end(), c.engine) == engines.end()) engines.push_back(c.engine);
  for (const Record* e : engines) {
    if (!e->data.contains("kernel_selection")) continue;
    const rule_util::KernelPick base = rule_util::pick_kernel(g, *e, f, q);
    for (const auto& entry : e->data.at("kernel_selection")) {  // by reference: compared with the pick's entry
      if (!entry.contains("flags") || !entry["flags"].is_array()) continue;
      const json formats = array_field(entry, "formats");
      if (std::find(formats.begin(), formats.end(), json(f.id)) == formats.end()) continue;
      Query flagged = q;
      for (const auto& fl : entry["flags"]) flagged.extra_flags.push_back(fl.get<std::string>());
      rule_util::KernelPick p = rule_util::pick_kernel(g, *e, f, flagged);
      if (!p.kernel || p.entry != &entry || p.kernel == base.kernel) continue;
      ojson row = {{"engine", e->id}, {"flags", ojson::parse(entry["flags"].dump())}, {"kernel", p.kernel->id}, {"mode", p.kernel->str("mode")}};
      if (!p.kernel->str("requires").empty()) row["requires"] = p.kernel->str("requires");
      out.push_back(row);
    }
  }
  return out;
}

ojson kernel_constraints(const Graph& g, const Record& f, const Record& t) {
  ojson out = ojson::array();
  for (const auto& [k, reason] : rule_util::exclusions_anywhere(g, f.id, t.id))
    out.push_back({{"kernel", k->id}, {"says", reason}});
  return out;
}

// The format's benchmarks: quality rows (a `quality` block or listed in quality_delta),
// speed rows measured on a part of this target, and the rest (other targets' speed rows are left out).
ojson benchmarks(const Graph& g, const Record& f, const Record& t) {
  ojson out = ojson::array();
  for (const Edge* e : g.in_edges(*g.index_of(f.id))) {
    const Record& b = g.record(e->from);
    if (b.kind != Kind::Benchmark || e->label != "measures") continue;
    bool speed = b.data.contains("speed");
    if (speed) {
      const Record* a = g.find(b.str("accelerator"));
      if (!a || a->str("target") != t.id) continue;
    }
    bool quality = b.data.contains("quality") || contains(f.strings("/quality_delta"), b.id);
    ojson row = {{"id", b.id}, {"metric", b.str("metric")}, {"value", b.data.value("value", json())}, {"grade", b.str("grade")},
                 {"quality_evidence", quality}, {"kind", quality ? "quality" : speed ? "speed" : "other"}};
    if (!b.str("model").empty()) row["model"] = b.str("model");
    if (speed) row["accelerator"] = b.str("accelerator");
    out.push_back(row);
  }
  return out;
}

// Every matrix's cells for this format on this target, "." cells included: the
// contract lists each engine's cell whether or not the engine made a candidate.
ojson all_cells(const Graph& g, const Record& f, const Record& t, const std::vector<std::string>& engines) {
  ojson out = ojson::array();
  for (const Record* m : g.of_kind(Kind::Matrix)) {
    std::string engine = m->str("engine");
    if (!engines.empty() && !contains(engines, engine)) continue;
    auto r = rule_util::read_matrix_cells(*m, f, t, engine);
    for (const auto* cells : {&r.yes, &r.no})
      for (const auto& c : *cells) {
        ojson cell = {{"matrix", c.matrix}, {"engine", c.engine}, {"cell", c.cell}, {"row", c.row}, {"column", c.column}};
        if (!c.note.empty()) cell["note"] = c.note;
        out.push_back(cell);
      }
  }
  return out;
}

// Other '.' cells in the matrix rows that cover the target: what else this part lacks.
ojson also_missing(const Graph& g, const Record& t, const std::vector<std::string>& engines) {
  ojson out = ojson::array();
  for (const Record* m : g.of_kind(Kind::Matrix)) {
    if (!engines.empty() && !contains(engines, m->str("engine"))) continue;
    const json* row = rule_util::covering_row(*m, t);
    if (!row) continue;
    for (const auto& col : m->data["columns"])
      if ((*row)["cells"].value(col["key"].get<std::string>(), std::string(".")) == ".")
        out.push_back({{"matrix", m->id}, {"engine", m->str("engine")}, {"column", col["label"]}});
  }
  return out;
}

// One entry per warning id, naming every engine it came through.
void add_warning(ojson& j, const Warning& w, const std::string& engine) {
  const char* key = w.id.rfind("rule-", 0) == 0 ? "warnings" : "gotchas";
  if (!j.contains(key)) j[key] = ojson::array();
  for (auto& x : j[key])
    if (x["id"] == w.id && x["message"] == w.message) {
      x["engines"].push_back(engine);
      return;
    }
  j[key].push_back({{"id", w.id}, {"severity", w.severity}, {"silent", w.silent}, {"message", w.message},
                    {"engines", ojson::array({engine})}, {"condition", w.condition}});
}

std::vector<std::string> rules_involved(const Deliberation& d, const Record& f) {
  std::vector<std::string> out;
  for (const auto& c : d.candidates)
    if (c.format == &f)
      for (const auto& r : c.rules) rule_util::add_unique(out, r);
  for (const auto& e : d.excluded)
    if (e.format == f.id) rule_util::add_unique(out, e.rule);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

ojson explain_format_on(const Graph& g, const Record& f, const Record& t, const Record* a, const std::vector<std::string>& engines) {
  Query q;
  q.accelerator = a;
  q.target = &t;
  q.formats = {f.id};
  q.engines = engines;
  q.every_engine = true;  // explain shows every engine's path, those that answer only when named too
  Deliberation d = deliberate(g, q);
  Verdict v = verdict_for(d, f);
  ojson j = {{"topic", f.id}, {"kind", "format"}, {"format", f.id}, {"name", f.name}, {"target", t.id}};
  ojson parts = ojson::array();
  for (const Record* p : parts_of(d)) parts.push_back(p->id);
  j["parts"] = parts;
  j["verdict"] = v.value;
  j["verdict_reasons"] = v.reasons;
  j["format_record"] = format_lists(d, f);
  j["contested_claims"] = contested_claims(d, f);
  j["engines"] = engine_lines(d, f, v.value);
  j["matrix_cells"] = all_cells(g, f, t, engines);
  j["kernels"] = ojson::array();
  j["conflicts"] = ojson::array();
  j["gotchas"] = ojson::array();
  j["warnings"] = ojson::array();
  for (const auto& c : d.candidates) {
    if (c.format != &f || !c.engine) continue;
    if (c.kernel) j["kernels"].push_back({{"engine", c.engine->id}, {"kernel", c.kernel->id}, {"path", c.path}});
    for (const auto& w : c.warnings) add_warning(j, w, c.engine->id);
  }
  std::vector<std::string> conflicts;
  for (const auto& c : d.candidates)
    if (c.format == &f)
      for (const auto& x : c.conflicts) rule_util::add_unique(conflicts, x);
  for (const auto& e : d.excluded)  // an exclusion a lower source disputes: both sides
    if (e.format == f.id)
      for (const auto& x : e.conflicts) rule_util::add_unique(conflicts, x);
  j["conflicts"] = conflicts;
  j["kernel_constraints"] = kernel_constraints(g, f, t);
  j["flagged_paths"] = flagged_paths(g, d, f, q);
  j["moe_formats"] = moe_formats(g, f, t);
  j["container_formats"] = container_formats(g, f, t, q);
  // No engine asked serves a checkpoint in this format, but one loads the scheme in its own container (llama.cpp: an NVFP4
  // model as a GGUF NVFP4 file): the headline says both, so "unsupported" is not read as "this engine cannot run the scheme"
  // (blind audit 21 #55).
  if (v.value == "unsupported" || v.value == "unknown") {
    auto rank = [](const std::string& x) { return x == "native" ? 0 : x == "dequant" ? 1 : x == "emulated" ? 2 : x == "contested" ? 3 : 9; };
    const ojson* best = nullptr;
    for (const auto& m : j["container_formats"])
      if (rank(m["verdict"].get<std::string>()) < 9 && (!best || rank(m["verdict"].get<std::string>()) < rank((*best)["verdict"].get<std::string>())))
        best = &m;
    if (best) j["verdict_as"] = {{"format", (*best)["format"]}, {"verdict", (*best)["verdict"]}, {"engines", (*best)["engines"]}};
  }
  j["also_missing"] = also_missing(g, t, engines);
  j["benchmarks"] = benchmarks(g, f, t);
  QualityCost cost = quality_cost(g, quality_model_of(d), f, nullptr, nullptr, choose_bpw(f, ModelSpec{}, &g).value, false);
  j["quality"] = {{"measured", cost.measured}, {"reference", cost.reference}, {"band", cost.band}, {"statement", cost.statement}};
  j["excluded"] = ojson::array();
  for (const auto& e : d.excluded)
    if (e.format == f.id) j["excluded"].push_back({{"engine", e.engine}, {"rule", e.rule}, {"reason", e.reason}});
  j["unknowns"] = d.unknowns;
  std::vector<std::string> rules = rules_involved(d, f);
  bool runs = v.value == "native" || v.value == "contested";
  if (runs && (f.data.contains("preferred_over") || f.data.value("portable", false))) rule_util::add_unique(rules, "rule-3");
  std::sort(rules.begin(), rules.end());
  j["rules"] = rules;
  // What the verdict rests on: the records behind the first way to run the format here.
  RestsOn on;
  if (auto c = std::find_if(d.candidates.begin(), d.candidates.end(), [&](const Candidate& x) { return x.format == &f; });
      c != d.candidates.end()) {
    on = rests_on(d, *c);
  } else {
    std::vector<std::string> ids = {f.id, t.id};
    for (const auto& cell : j["matrix_cells"]) ids.push_back(cell["matrix"].get<std::string>());
    on = rests_on_records(g, ids);
  }
  j["rests_on"] = {{"records", on.records}, {"draft", on.draft}, {"unverified", on.unverified}, {"statement", on.statement}};
  return j;
}

}  // namespace qsel
