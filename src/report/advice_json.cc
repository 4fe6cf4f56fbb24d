#include "qsel/report/advice_json.h"

#include <cmath>

#include <fmt/format.h>

#include "qsel/report/json_contract.h"
#include "qsel/rules/rests_on.h"

namespace qsel {

using ojson = nlohmann::ordered_json;

namespace {

double round2(double v) { return std::round(v * 100) / 100; }

ojson warning_json(const Warning& w) {
  ojson j = {{"id", w.id}, {"severity", w.severity}, {"message", w.message}, {"silent", w.silent}};
  if (!w.condition.empty()) j["condition"] = w.condition;
  return j;
}

void memory_json(const Memory& m, ojson& j) {
  bool sized = m.bpw > 0;
  j["weights_gb"] = sized ? ojson(round2(m.weights_gb)) : ojson();
  j["kv_cache_gb"] = round2(m.kv_gb);
  j["recurrent_state_gb"] = round2(m.state_gb);
  if (m.state_gb > 0)
    j["recurrent_state"] = {{"gb", round2(m.state_gb)}, {"sequences", m.state_sequences}, {"bytes_per_value", m.state_bytes},
                            {"per_sequence_mib", std::round(m.state_gb / std::max(1, m.state_sequences) * 1e9 / 1048576.0 * 100) / 100}};
  j["total_gb"] = sized ? ojson(round2(m.total_gb)) : ojson();
  j["budget_gb"] = round2(m.budget_gb);
  j["fits"] = m.fits;
  j["fit"] = m.fit;
  j["tensor_parallel"] = m.layout.layer_split ? 1 : m.layout.tp;
  j["parts"] = m.parts;
  j["layout"] = {{"tensor", m.layout.layer_split ? 1 : m.layout.tp}, {"pipeline", m.layout.pp}, {"expert", m.layout.ep},
                 {"replicas", m.layout.dp}, {"layer_split", m.layout.layer_split}, {"idle", m.layout.idle},
                 {"nodes", m.layout.nodes}, {"per_node", m.layout.per_node}, {"describe", m.layout.describe()},
                 {"flags", m.layout.flags.empty() ? ojson() : ojson(m.layout.flags)}};
  j["headroom_gb"] = sized ? ojson(round2(m.budget_gb - m.total_gb)) : ojson();
  j["margin_gb"] = round2(m.margin_gb);
  j["margin_source"] = m.margin_source;
  j["setting"] = m.setting.empty() ? ojson() : ojson(m.setting);
  j["bpw"] = round2(m.bpw);
  j["bpw_source"] = m.bpw_source;
  j["kv_dtype"] = m.kv_dtype;
  j["decode_ceiling_tok_s"] = std::round(m.decode_tok_s);
  if (m.forecast_tok_s > 0)
    j["forecast"] = {{"decode_tok_s", std::round(m.forecast_tok_s * 10) / 10}, {"efficiency", std::round(m.efficiency.value * 1000) / 1000},
                     {"measurements", m.efficiency.rows}, {"basis", m.efficiency.basis},
                     {"per_sequence_tok_s", std::round(m.per_sequence_tok_s * 10) / 10}, {"sequences", std::max(1, m.running)}};
  if (m.forecast_tok_s > 0 && m.forecast_start_tok_s > 0) j["forecast"]["decode_tok_s_start"] = std::round(m.forecast_start_tok_s * 10) / 10;
  if (m.placement) {
    const Placement& p = *m.placement;
    j["placement"] = {{"kind", p.kind}, {"gpu_layers", p.gpu_layers}, {"cpu_moe_layers", p.cpu_moe_layers}, {"layers", p.layers},
                      {"vram_gb", round2(p.vram_gb)}, {"ram_gb", round2(p.ram_gb)}, {"kv_cache", p.kv_where}, {"command", p.command}};
    if (!p.split.empty()) j["placement"]["split"] = p.split;  // layers per GPU, in order (-ts)
  }
  j["compute_ceiling_tok_s"] = std::round(m.compute_tok_s);
  j["command"] = ojson();
  j["commands"] = ojson::array();
  for (const auto& c : m.commands) {
    j["commands"].push_back({{"role", c.role}, {"program", c.program}, {"command", c.text}});
    if (c.role == "run" && j["command"].is_null()) j["command"] = c.text;
  }
  j["memory_notes"] = m.notes;
  const Budget& b = m.budget;
  j["budget"] = {{"kind", b.kind}, {"capacity_gb", round2(b.capacity_gb)}, {"total_gb", round2(b.total_gb)},
                 {"total_source", b.total_source}, {"fraction", b.fraction}, {"fraction_source", b.fraction_source},
                 {"activation_gb", round2(b.activation_gb)}, {"non_torch_gb", round2(b.non_torch_gb)},
                 {"cuda_graphs_gb", round2(b.cuda_graphs_gb)}, {"buffers_gb", round2(b.buffers_gb)},
                 {"for_model_gb", round2(b.for_model_gb)}, {"statement", b.statement}};
  if (!b.cap_note.empty()) j["budget"]["cap_note"] = b.cap_note;
}

ojson advice_model_json(const ModelSpec& m) {
  ojson j = {{"id", m.id}, {"description", m.description}, {"origin", m.origin}, {"source", m.source}, {"params_b", m.params_b},
             {"active_params_b", m.active_params_b}, {"layers", m.layers}, {"kv_heads", m.kv_heads},
             {"head_dim", m.head_dim}, {"attention", m.attention}, {"notes", m.notes}};
  if (m.checkpoint) {
    const auto& c = *m.checkpoint;
    j["checkpoint"] = {{"path", c.path}, {"format", c.format.empty() ? ojson() : ojson(c.format)}, {"matched_by", c.matched_by},
                       {"params", c.params}, {"bytes", c.bytes}, {"bpw", c.params > 0 ? ojson(c.bpw()) : ojson()}, {"read", c.read}};
  }
  if (m.hub) {
    const auto& h = *m.hub;
    j["hub"] = {{"repo", h.repo}, {"revision", h.revision}, {"commit", h.sha.empty() ? ojson() : ojson(h.sha)}, {"types", h.types},
                {"problem", h.problem.empty() ? ojson() : ojson(h.problem)}};
  }
  return j;
}

ojson accelerator_json(const Query& q) {
  const Record& a = *q.accelerator;
  ojson j = {{"id", a.id}, {"name", a.name}, {"target", q.target->id}, {"vendor", a.str("vendor")},
             {"memory_gb", a.data.value("memory_gb", nlohmann::json())},
             {"memory_unit", a.str("memory_unit") == "GB" ? "GB" : "GiB"},
             {"memory_bandwidth_gbs", a.data.value("memory_bandwidth_gbs", nlohmann::json())}, {"count", q.count}};
  if (a.data.value("user_described", false)) {
    j["user_described"] = true;
    j["described_by"] = a.str("described_by");
  }
  if (!q.gpu_note.empty()) j["resolved"] = q.gpu_note;
  return j;
}

}  // namespace

ojson candidate_json(const Candidate& c, std::size_t rank) {
  ojson j = {{"rank", rank}, {"format", c.format->id}, {"format_name", c.format->name}, {"regime", c.format->str("regime")},
             {"engine", c.engine ? ojson(c.engine->id) : ojson()}, {"kernel", c.kernel ? ojson(c.kernel->id) : ojson()},
             {"backend", c.backend}, {"path", c.path}, {"maturity", c.maturity}, {"shipped", c.shipped},
             {"release", c.release.empty() ? ojson() : ojson(c.release)}, {"row", c.row}};
  if (!c.maturity_reason.empty()) j["maturity_reason"] = c.maturity_reason;
  if (c.memory) memory_json(*c.memory, j);
  j["rules"] = c.rules;
  j["why"] = c.why;
  j["warnings"] = ojson::array();
  for (const auto& w : c.warnings) j["warnings"].push_back(warning_json(w));
  j["evidence"] = c.evidence;
  j["evidence_grade"] = c.evidence_grade;
  const QualityCost& q = c.quality;
  ojson qj = {{"reference", q.reference}, {"known", q.known}, {"measured", q.measured}, {"band", q.band},
              {"cost", q.total()}, {"summary", q.short_text}, {"statement", q.statement}};
  if (q.known && !q.reference) {
    qj["estimate"] = {{"kld", q.cost}, {"low", q.low}, {"high", q.high}, {"kv_cache_kld", q.kv_cost}};
    qj["family"] = q.family;
    qj["family_rows"] = q.family_rows;
    qj["rows"] = q.rows;
  }
  qj["measured_here"] = q.here;
  if (q.measured) {  // the first row measured here, under the keys earlier versions gave it
    qj["metric"] = q.here_metric;
    qj["value"] = q.here_value;
    qj["model"] = q.here_model;
    qj["match"] = "this model";
    qj["grade"] = q.here_grade;
    qj["benchmark"] = q.here.front();
  }
  j["quality"] = qj;
  j["matrix_cells"] = ojson::array();
  for (const auto& m : c.cells)
    j["matrix_cells"].push_back({{"matrix", m.matrix}, {"engine", m.engine}, {"row", m.row}, {"column", m.column}, {"cell", m.cell}});
  j["conflicts"] = c.conflicts;
  j["contested"] = c.contested();
  j["outranked"] = c.outranked_only();  // every conflict is docs the engine's code outranks: the verdict is the code's
  j["checks"] = c.checks;
  if (const BackendBuild& b = c.backend_build; !b.build.empty()) {
    ojson bj = {{"name", b.name}, {"build", b.build}};
    if (!b.device.empty()) bj["device"] = b.device;
    if (!b.note.empty()) bj["note"] = b.note;
    if (b.off_platform) j["engine_label"] = fmt::format("{}:{}", c.engine->id, c.backend);
    j["backend_build"] = bj;
  }
  return j;
}

ojson recommend_json(const Deliberation& d) {
  const Query& q = d.query;
  ojson j;
  j["schema_version"] = kOutputSchemaVersion;
  j["accelerator"] = accelerator_json(q);
  j["model"] = advice_model_json(*q.model);
  j["host"] = {{"ram_gb", q.host.ram_gb}, {"ram_bandwidth_gbs", q.host.ram_bandwidth_gbs}, {"source", q.host.source}};
  j["query"] = {{"objective", q.objective}, {"memory_fraction", q.memory_fraction > 0 ? ojson(q.memory_fraction) : ojson()}, {"context", q.context}, {"batch", q.batch}, {"kv_cache", q.kv_cache}, {"engines", q.engines},
                {"portable", q.portable}, {"spec_decode", q.spec_decode}, {"prefix_caching", q.prefix_caching},
                {"flags", q.extra_flags}};
  if (q.serving_concurrency() > 1) j["query"]["concurrency"] = q.serving_concurrency();
  j["deployable"] = d.deployable;
  j["lead"] = d.lead;
  j["lead_kind"] = d.lead_kind.empty() ? ojson() : ojson(d.lead_kind);
  j["candidates"] = ojson::array();
  for (std::size_t i = 0; i < d.candidates.size(); ++i) {
    ojson c = candidate_json(d.candidates[i], i + 1);
    RestsOn on = rests_on(d, d.candidates[i]);
    c["rests_on"] = {{"records", on.records}, {"draft", on.draft}, {"unverified", on.unverified}, {"statement", on.statement}};
    j["candidates"].push_back(std::move(c));
  }
  j["excluded"] = ojson::array();
  for (const auto& e : d.excluded) {
    ojson x = {{"format", e.format.empty() ? ojson() : ojson(e.format)}, {"engine", e.engine.empty() ? ojson() : ojson(e.engine)}, {"rule", e.rule},
               {"reason", e.reason}, {"evidence", e.evidence}};
    if (!e.conflicts.empty()) x["conflicts"] = e.conflicts;
    j["excluded"].push_back(x);
  }
  j["unknowns"] = d.unknowns;
  j["what_would_change"] = d.changes;
  j["tradeoffs"] = d.tradeoffs;
  j["notes"] = d.notes;
  return j;
}

}  // namespace qsel
