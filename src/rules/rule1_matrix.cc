// Rule 1 — a format record tells you what exists, not what runs. Deployability
// comes from the engine's matrix cell for the target; where the matrix does not
// cover the target (or the format), say so and let kernel selection decide.
#include <algorithm>

#include <fmt/format.h>

#include "qsel/core/citation.h"
#include "qsel/graph/engines.h"
#include "qsel/rules/rules.h"
#include "qsel/rules/rule_support.h"

namespace qsel {
using nlohmann::json;
namespace {

std::string refusal(const Record& m, const std::vector<MatrixCell>& no) {
  std::vector<std::string> cols;
  for (const auto& c : no) cols.push_back(c.column + (c.note.empty() ? "" : " (" + c.note + ")"));
  return fmt::format("{} marks {} \".\" on {}", m.id, fmt::join(cols, ", "), no[0].row);
}

// Returns false when the matrix rules the candidate out.
bool judge(Deliberation& d, Candidate& c) {
  const Record* m = d.graph.find(c.engine->str("matrix"));
  if (!m) return true;
  rule_util::CellRead r = rule_util::read_matrix_cells(*m, *c.format, *d.query.target, c.engine->id);
  c.rules.push_back("rule-1");
  c.evidence.push_back(m->id);
  if (!r.row_found) {
    c.why.push_back(fmt::format("Rule 1 — {}'s matrix does not cover {}: {}; deployability read from its kernel selection",
                                c.engine->id, d.query.target->id, r.uncovered_note));
    return true;
  }
  if (!r.column_found) {
    c.why.push_back(fmt::format("Rule 1 — {}'s matrix has no column for {}; deployability read from its kernel selection",
                                c.engine->id, c.format->id));
    return true;
  }
  if (!r.yes.empty()) {
    c.cells = r.yes;
    c.why.push_back(fmt::format("Rule 1 — {} marks {} {} on {}", m->id, r.yes[0].column, r.yes[0].cell, r.yes[0].row));
    return true;
  }
  // The matrix says "." but the engine's code serves it here, and the entry read
  // from the code records the disagreement: kept, contested (Rule 2 cites both).
  auto pick = rule_util::pick_kernel(d.graph, *c.engine, *c.format, d.query);
  // A "." in a column about one kernel family says that family does not run here; when
  // the engine picks another kernel for the format on this target, it does not refuse it.
  bool about_kernels = std::all_of(r.no.begin(), r.no.end(), [](const MatrixCell& x) { return !x.kernels.empty(); });
  if (about_kernels && pick.kernel &&
      std::none_of(r.no.begin(), r.no.end(), [&](const MatrixCell& x) { return rule_util::contains(x.kernels, pick.kernel->id); })) {
    c.why.push_back(fmt::format("Rule 1 — {}, a column about {}; {} picks {} for {} here, so it does not rule the format out",
                                refusal(*m, r.no), fmt::join(r.no[0].kernels, "/"), c.engine->id, pick.kernel->id, c.format->id));
    return true;
  }
  if (pick.entry && pick.entry->contains("disputed") && (*pick.entry)["disputed"].value("about", "support") == "support") {
    c.cells = r.no;
    c.why.push_back(fmt::format("Rule 1 — {} (docs); its code serves it anyway: contested", refusal(*m, r.no)));
    return true;
  }
  d.excluded.push_back({c.format->id, c.engine->id, "rule-1", refusal(*m, r.no), {m->id}});
  return false;
}

// A per-model table's refusal: every row that names the model says "." ("marks MXFP4 "." on LLaMA and LLaMA 3").
std::string model_refusal(const Record& m, const std::vector<MatrixCell>& no) {
  std::vector<std::string> cols, rows;
  for (const auto& c : no) {
    std::string col = c.column + (c.note.empty() ? "" : " (" + c.note + ")");
    if (std::find(cols.begin(), cols.end(), col) == cols.end()) cols.push_back(col);
    if (std::find(rows.begin(), rows.end(), c.row) == rows.end()) rows.push_back(c.row);
  }
  return fmt::format("{} marks {} \".\" on {} (its per-model table)", m.id, fmt::join(cols, ", "), fmt::join(rows, " and "));
}

// An engine's per-model table (a matrix with axis: model) that names the model restricts its
// formats for it on every part, read together with the hardware table: a "." there rules the
// format out for this model; a model the table does not name is not restricted by it.
bool judge_model_tables(Deliberation& d, Candidate& c) {
  if (!d.query.model) return true;
  for (const Record* m : matrices_of(d.graph, *c.engine)) {
    if (!model_axis(*m)) continue;
    rule_util::CellRead r = rule_util::read_model_cells(*m, *c.format, *d.query.model, c.engine->id);
    if (!r.row_found || !r.column_found) continue;
    c.evidence.push_back(m->id);
    // The cells stay out of c.cells: those are the hardware table's, which Rule 2 reads for the part.
    if (!r.yes.empty()) {
      c.why.push_back(fmt::format("Rule 1 — {} marks {} {} for {}", m->id, r.yes[0].column, r.yes[0].cell, r.yes[0].row));
      continue;
    }
    // A "." that a source of the same tier contests (a footnote's contested_by) keeps the
    // candidate, contested: both are shown, and the candidate waits behind uncontested ones.
    std::string contest = rule_util::contesting_footnote(*m, r.no[0].cell);
    if (!contest.empty()) {
      c.conflicts.push_back(fmt::format("{}; contested: {}", model_refusal(*m, r.no), contest));
      // Engine code at a commit outranks the table (its docs): the verdict is the code's, the docs' "." stays shown.
      const nlohmann::json* by = rule_util::contesting_source(*m, r.no[0].cell);
      const auto& table_sources = array_field(m->data, "sources");
      bool docs = table_sources.empty() || read_citation(table_sources[0]).tier != "engine-code";
      if (by && read_citation(*by).tier == "engine-code" && docs) ++c.outranked;
      c.why.push_back(fmt::format("Rule 1 — {}; contested: {}", model_refusal(*m, r.no), contest));
      continue;
    }
    d.excluded.push_back({c.format->id, c.engine->id, "rule-1", model_refusal(*m, r.no), {m->id}});
    return false;
  }
  return true;
}

}  // namespace

void apply_rule1(Deliberation& d) {
  std::vector<Candidate> kept;
  for (auto& c : d.candidates)
    if (!c.engine || is_baseline(*c.format) || (judge(d, c) && judge_model_tables(d, c))) kept.push_back(std::move(c));
  d.candidates = std::move(kept);
}

}  // namespace qsel
