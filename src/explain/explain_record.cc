// explain TOPIC without --on: what the records say about one record, per kind,
// and a selection rule's page with the records behind it.
#include <fmt/format.h>

#include "qsel/explain/explain.h"
#include "qsel/core/json_number.h"
#include "qsel/sizing/memory.h"
#include "qsel/rules/rules.h"
#include "qsel/rules/verdict.h"
#include "qsel/rules/rule_support.h"

namespace qsel {
using ojson = nlohmann::ordered_json;
using nlohmann::json;
namespace {

using rule_util::contains;

std::vector<std::string> referrers(const Graph& g, const Record& r, Kind kind) {
  std::vector<std::string> out;
  for (const Edge* e : g.in_edges(*g.index_of(r.id)))
    if (g.record(e->from).kind == kind) rule_util::add_unique(out, g.record(e->from).id);
  return out;
}

ojson format_rules(const Record& f) {
  ojson out = ojson::array();
  auto add = [&](const char* rule, std::string why) { out.push_back({{"rule", rule}, {"why", std::move(why)}}); };
  if (!f.data.value("post_training", true)) add("rule-7", "a training-time recipe (post_training: false): not a choice for an existing checkpoint");
  else if (f.data.value("research_only", false)) add("rule-7", "research-only (no deployable silicon or kernel path): cite for accuracy, not speed");
  if (f.str("scheme") == "gguf") add("rule-5", "compare on measured bits per weight, not the name; no GGUF type is native anywhere");
  else if (f.str("regime") == "w4a16") add("rule-4", fmt::format("W4A16: group {} is the scheme; the kernel is chosen per generation",
                                                               f.data.value("weight_group_size", json("unknown")).dump()));
  if (!f.strings("/requires_tensor_core").empty())
    add("rule-2", fmt::format("native only where the target computes {} on tensor cores; elsewhere served weight-only (emulated)",
                              fmt::join(f.strings("/requires_tensor_core"), ", ")));
  if (f.data.contains("preferred_over") || f.data.value("portable", false)) add("rule-3", "ranked against its twin on risk vs portability");
  if (f.str("regime") == "kv-cache") add("rule-6", "a KV-cache format: capacity measure, accuracy delta unmeasured unless a benchmark says otherwise");
  return out;
}

ojson explain_format(const Graph& g, const Record& f) {
  ojson j;
  for (const char* k : {"regime", "scheme", "element_format", "scale_format", "ggml_type", "quality_note"})
    if (!f.str(k).empty()) j[k] = f.str(k);
  for (const char* k : {"weight_group_size", "weight_only", "hardware_path", "bpw", "mixture", "post_training"})
    if (f.data.contains(k)) j[k] = f.data[k];
  j["native_support"] = f.strings("/native_support");
  j["emulated_support"] = f.strings("/emulated_support");
  j["rules"] = format_rules(f);
  j["served_by"] = ojson::array();
  for (const Record* e : g.of_kind(Kind::Engine))
    if (contains(served_formats(*e), f.id)) j["served_by"].push_back(e->id);
  j["benchmarks"] = referrers(g, f, Kind::Benchmark);
  j["gotchas"] = referrers(g, f, Kind::Gotcha);
  return j;
}

ojson explain_part(const Graph& g, const Record& r) {
  const Record* target = r.kind == Kind::Target ? &r : g.find(r.str("target"));
  ojson j;
  if (!target) return {{"note", "this part names no target record"}};
  Query q;
  q.accelerator = r.kind == Kind::Accelerator ? &r : nullptr;
  q.target = target;
  ojson by = ojson::object();
  for (const Record* f : g.of_kind(Kind::Format)) {  // each as explain F --on this part says (rules/verdict.h)
    if (f->str("regime") == "kv-cache" || f->str("scheme") == "category") continue;
    Verdict v = format_verdict(g, q, *f);
    by[v.value].push_back(f->id);
  }
  j["target"] = target->id;
  j["verdicts"] = by;
  j["engines"] = ojson::array();
  for (const Record* e : g.of_kind(Kind::Engine))
    if (rule_util::engine_runs_on(*e, *target)) j["engines"].push_back(e->id);
  if (r.kind == Kind::Accelerator) {
    std::vector<std::string> native, emulated;
    for (const Record* f : g.of_kind(Kind::Format)) {
      if (contains(f->strings("/native_support"), r.id)) native.push_back(f->id);
      if (contains(f->strings("/emulated_support"), r.id)) emulated.push_back(f->id);
    }
    j["census"] = {{"native", native}, {"emulated", emulated}, {"recorded", object_field(r.data, "census")}};
  }
  j["unknowns"] = deliberate(g, q).unknowns;  // what the target as a whole leaves unrecorded
  return j;
}

ojson explain_kernel(const Graph& g, const Record& k) {
  ojson j = {{"mode", k.str("mode")}, {"runs_on", object_field(k.data, "runs_on")}};
  j["targets"] = ojson::array();
  for (const Record* t : matching_targets(object_field(k.data, "runs_on"), g)) j["targets"].push_back(t->id);
  j["picked_by"] = ojson::array();
  for (const Record* e : g.of_kind(Kind::Engine)) {
    const auto& sel = array_field(e->data, "kernel_selection");
    for (std::size_t i = 0; i < sel.size(); ++i)
      if (sel[i]["kernel"] == k.id)
        j["picked_by"].push_back({{"engine", e->id}, {"position", i + 1}, {"formats", sel[i].value("formats", json::array())},
                                  {"when", sel[i].value("when", json::object())}, {"flags", sel[i].value("flags", json::array())}});
  }
  j["equivalent_to"] = k.strings("/equivalent_to");
  j["excludes"] = array_field(k.data, "excludes");
  return j;
}

ojson explain_engine(const Graph&, const Record& e) {
  ojson j = {{"platforms", e.strings("/platforms")}, {"matrix", e.str("matrix")}};
  j["kernel_selection"] = ojson::array();
  for (const auto& s : array_field(e.data, "kernel_selection"))
    j["kernel_selection"].push_back({{"kernel", s["kernel"]}, {"formats", array_field(s, "formats")},
                                     {"when", object_field(s, "when")}, {"flags", array_field(s, "flags")}});
  j["memory"] = object_field(e.data, "memory");
  j["startup_checks"] = array_field(e.data, "startup_checks");
  return j;
}

ojson explain_gotcha(const Graph&, const Record& r) {
  return {{"severity", r.str("severity")}, {"silent", r.data.value("silent", false)}, {"applies", object_field(r.data, "applies")},
          {"detect", object_field(r.data, "detect")}, {"avoid", r.str("avoid")}, {"evidence", r.strings("/evidence")}};
}

ojson explain_model(const Graph& g, const Record& r) {
  ModelSpec m = model_from_record(r);
  ojson rows = ojson::array();
  std::map<double, std::vector<std::string>> by_bpw;
  for (const Record* f : g.of_kind(Kind::Format)) {
    if (f->str("regime") == "kv-cache" || f->str("scheme") == "category" || f->data.value("research_only", false)) continue;
    if (!f->data.value("post_training", true) || (f->data.value("moe", false) && !m.moe())) continue;
    Bpw b = choose_bpw(*f, m, &g);
    if (b.value > 0 && b.source.find("lower bound") == std::string::npos)
      by_bpw[std::round(weights_gb(*f, m, b) * 10) / 10].push_back(f->id);
  }
  for (auto it = by_bpw.rbegin(); it != by_bpw.rend(); ++it) rows.push_back({{"weights_gb", it->first}, {"formats", it->second}});
  ojson kv = ojson::array();
  for (long ctx : {4096L, 32768L, 131072L})
    kv.push_back({{"context", ctx}, {"kv_16bit_gb", std::round(kv_cache_gb(m, ctx, 1, 2) * 100) / 100},
                  {"kv_8bit_gb", std::round(kv_cache_gb(m, ctx, 1, 1) * 100) / 100}});
  ojson out = {{"description", m.description}, {"weights", rows}, {"kv_cache_batch_1", kv}};
  if (m.linear.any())  // whatever the context: per sequence, in f32 (llama.cpp) and 16-bit (vLLM's default)
    out["recurrent_state_per_sequence"] = {{"layers", m.linear.layers},
                                           {"f32_mib", std::round(recurrent_state_gb(m, 1, 4) * 1e9 / 1048576.0 * 100) / 100},
                                           {"bf16_mib", std::round(recurrent_state_gb(m, 1, 2) * 1e9 / 1048576.0 * 100) / 100}};
  return out;
}

}  // namespace

ojson explain_record(const Graph& g, const Record& r) {
  ojson j = {{"topic", r.id}, {"kind", kind_name(r.kind)}, {"name", r.name}, {"file", r.file}};
  ojson body;
  switch (r.kind) {
    case Kind::Format: body = explain_format(g, r); break;
    case Kind::Accelerator: case Kind::Target: body = explain_part(g, r); break;
    case Kind::Kernel: body = explain_kernel(g, r); break;
    case Kind::Engine: body = explain_engine(g, r); break;
    case Kind::Gotcha: body = explain_gotcha(g, r); break;
    case Kind::Model: body = explain_model(g, r); break;
    default: body = {{"statement", r.str("statement")}, {"notes", r.str("notes")}};
  }
  for (auto& [k, v] : body.items()) j[k] = v;
  j["status"] = r.str("status");
  j["confidence"] = r.data.value("confidence", 0.0);
  return j;
}

ojson explain_rule(const Graph& g, const std::string& id) {
  const SelectionRule* rule = find_selection_rule(id);
  ojson j = {{"topic", id}, {"kind", "rule"}, {"name", rule ? rule->title : ""}, {"doc", rule_doc(id)}};
  j["records"] = ojson::array();
  if (rule && rule->records)
    for (const Record* r : rule->records(g)) j["records"].push_back({{"id", r->id}, {"kind", kind_name(r->kind)}});
  return j;
}

}  // namespace qsel
