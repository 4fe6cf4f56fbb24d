// Reading a support matrix: the row that covers a target, the cells of the
// columns that map to a format, footnotes that narrow a cell. Rule 1 and explain
// both read cells through here.
#include <algorithm>

#include <fmt/format.h>

#include "qsel/rules/rule_support.h"

namespace qsel::rule_util {
using nlohmann::json;
namespace {

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

}  // namespace

const json* covering_row(const Record& m, const Record& target) {
  for (const auto& row : m.data["rows"])
    if (selector_matches(row["match"], target)) return &row;
  return nullptr;
}

CellRead read_matrix_cells(const Record& m, const Record& format, const Record& target, const std::string& engine) {
  CellRead r;
  const json* row = covering_row(m, target);
  if (!row) {
    r.uncovered_note = uncovered_note(m, target);
    return r;
  }
  r.row_found = true;
  for (const auto& col : m.data["columns"]) {
    const auto& fs = col.value("formats", json::array());
    if (std::find(fs.begin(), fs.end(), json(format.id)) == fs.end()) continue;
    r.column_found = true;
    std::string cell = (*row)["cells"].value(col["key"].get<std::string>(), std::string("."));
    std::string narrowed = footnote_exclusion(m, cell, format.id);
    MatrixCell mc{m.id, engine, (*row)["label"], col["label"], cell, narrowed, {}};
    if (col.contains("kernel")) mc.kernels.push_back(col["kernel"].get<std::string>());
    for (const auto& k : col.value("kernels", json::array())) mc.kernels.push_back(k.get<std::string>());
    (cell.rfind("Y", 0) == 0 && narrowed.empty() ? r.yes : r.no).push_back(mc);
  }
  return r;
}

}  // namespace qsel::rule_util
