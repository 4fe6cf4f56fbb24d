// Rule 1 — a format record tells you what exists, not what runs. Deployability
// comes from the engine's matrix cell for the target; where the matrix does not
// cover the target (or the format), say so and let kernel selection decide.
#include <algorithm>

#include <fmt/format.h>

#include "qsel/rules/rules.h"
#include "rule_support.h"

namespace qsel {
namespace {

using nlohmann::json;

struct CellRead {
  std::vector<MatrixCell> yes, no;
  bool row_found = false, column_found = false;
  std::string uncovered_note;
};

const json* covering_row(const Record& m, const Record& target) {
  for (const auto& row : m.data["rows"])
    if (selector_matches(row["match"], target)) return &row;
  return nullptr;
}

std::string uncovered_note(const Record& m, const Record& target) {
  for (const auto& u : m.data.value("uncovered", json::array()))
    if (selector_matches(u["match"], target)) return u["note"].get<std::string>();
  return fmt::format("it has no row for {}", target.id);
}

// A footnote may narrow a cell ("Turing does not support Marlin MXFP4").
std::string footnote_exclusion(const Record& m, const std::string& cell, const std::string& format) {
  const json footnotes = m.data.value("footnotes", json::object());
  for (const auto& [mark, note] : footnotes.items()) {
    if (cell.find(mark) == std::string::npos || !note.is_object()) continue;
    const auto& ex = note.value("excludes_formats", json::array());
    if (std::find(ex.begin(), ex.end(), json(format)) != ex.end()) return note["text"].get<std::string>();
  }
  return "";
}

CellRead read_cells(const Record& m, const Record& format, const Record& target, const std::string& engine) {
  CellRead r;
  const json* row = covering_row(m, target);
  if (!row) { r.uncovered_note = uncovered_note(m, target); return r; }
  r.row_found = true;
  for (const auto& col : m.data["columns"]) {
    const auto& fs = col.value("formats", json::array());
    if (std::find(fs.begin(), fs.end(), json(format.id)) == fs.end()) continue;
    r.column_found = true;
    std::string cell = (*row)["cells"].value(col["key"].get<std::string>(), std::string("."));
    std::string narrowed = footnote_exclusion(m, cell, format.id);
    MatrixCell mc{m.id, engine, (*row)["label"], col["label"], cell, narrowed};
    (cell.rfind("Y", 0) == 0 && narrowed.empty() ? r.yes : r.no).push_back(mc);
  }
  return r;
}

std::string refusal(const Record& m, const std::vector<MatrixCell>& no) {
  std::vector<std::string> cols;
  for (const auto& c : no) cols.push_back(c.column + (c.note.empty() ? "" : " (" + c.note + ")"));
  return fmt::format("{} marks {} \".\" on {}", m.id, fmt::join(cols, ", "), no[0].row);
}

// Returns false when the matrix rules the candidate out.
bool judge(Deliberation& d, Candidate& c) {
  const Record* m = d.graph.find(c.engine->str("matrix"));
  if (!m) return true;
  CellRead r = read_cells(*m, *c.format, *d.query.target, c.engine->id);
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
  d.excluded.push_back({c.format->id, c.engine->id, "rule-1", refusal(*m, r.no), {m->id}});
  return false;
}

}  // namespace

void apply_rule1(Deliberation& d) {
  std::vector<Candidate> kept;
  for (auto& c : d.candidates)
    if (!c.engine || judge(d, c)) kept.push_back(std::move(c));
  d.candidates = std::move(kept);
}

}  // namespace qsel
