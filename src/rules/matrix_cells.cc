// Reading a support matrix: the row that covers a target, the cells of the
// columns that map to a format, footnotes that narrow a cell. Rule 1 and explain
// both read cells through here.
#include <algorithm>

#include <fmt/format.h>

#include "qsel/graph/engines.h"
#include "qsel/core/json_number.h"
#include "qsel/rules/rule_support.h"

namespace qsel::rule_util {
using nlohmann::json;
namespace {

std::string uncovered_note(const Record& m, const Record& target) {
  for (const auto& u : array_field(m.data, "uncovered"))
    if (selector_matches(u["match"], target)) return u["note"].get<std::string>();
  return fmt::format("it has no row for {}", target.id);
}

// A footnote may narrow a cell ("Turing does not support Marlin MXFP4").
std::string footnote_exclusion(const Record& m, const std::string& cell, const std::string& format) {
  const json footnotes = object_field(m.data, "footnotes");
  for (const auto& [mark, note] : footnotes.items()) {
    if (cell.find(mark) == std::string::npos || !note.is_object()) continue;
    const auto& ex = array_field(note, "excludes_formats");
    if (std::find(ex.begin(), ex.end(), json(format)) != ex.end()) return note["text"].get<std::string>();
  }
  return "";
}

// The cells of `row` for the columns that map to the format.
void read_row(const Record& m, const json& row, const Record& format, const std::string& engine, CellRead& r) {
  r.row_found = true;
  for (const auto& col : m.data["columns"]) {
    const auto& fs = array_field(col, "formats");
    if (std::find(fs.begin(), fs.end(), json(format.id)) == fs.end()) continue;
    r.column_found = true;
    std::string cell = row["cells"].value(col["key"].get<std::string>(), std::string("."));
    std::string narrowed = footnote_exclusion(m, cell, format.id);
    MatrixCell mc{m.id, engine, row["label"], col["label"], cell, narrowed, {}};
    if (col.contains("kernel")) mc.kernels.push_back(col["kernel"].get<std::string>());
    for (const auto& k : array_field(col, "kernels")) mc.kernels.push_back(k.get<std::string>());
    (cell.rfind("Y", 0) == 0 && narrowed.empty() ? r.yes : r.no).push_back(mc);
  }
}

}  // namespace

const json* covering_row(const Record& m, const Record& target) {
  if (model_axis(m)) return nullptr;  // a per-model table says nothing about a part
  for (const auto& row : m.data["rows"])
    if (row.contains("match") && selector_matches(row["match"], target)) return &row;
  return nullptr;
}

CellRead read_matrix_cells(const Record& m, const Record& format, const Record& target, const std::string& engine) {
  CellRead r;
  const json* row = covering_row(m, target);
  if (!row) {
    r.uncovered_note = model_axis(m) ? "a per-model table, not a hardware one" : uncovered_note(m, target);
    return r;
  }
  read_row(m, *row, format, engine, r);
  return r;
}

namespace {

// The footnote on `cell` that carries `contested_by`, or null.
const json* contesting_note(const Record& m, const std::string& cell) {
  const json& footnotes = object_field(m.data, "footnotes");
  for (const auto& [mark, note] : footnotes.items())
    if (cell.find(mark) != std::string::npos && note.is_object() && note.contains("contested_by")) return &note;
  return nullptr;
}

}  // namespace

const json* contesting_source(const Record& m, const std::string& cell) {
  const json* note = contesting_note(m, cell);
  return note ? &(*note)["contested_by"] : nullptr;
}

std::string contesting_footnote(const Record& m, const std::string& cell) {
  const json* note = contesting_note(m, cell);
  if (!note) return "";
  return fmt::format("{} [{}]", note->value("text", std::string()), (*note)["contested_by"].value("title", std::string()));
}

std::vector<const json*> model_rows(const Record& m, const ModelSpec& model) {
  std::vector<const json*> out;
  if (!model_axis(m)) return out;
  auto names = [](const json& row, const char* key, const std::string& value) {
    const json& list = object_field(row, "models").value(key, json::array());
    return !value.empty() && std::find(list.begin(), list.end(), json(value)) != list.end();
  };
  for (const auto& row : m.data["rows"])
    if (names(row, "families", model.family) || names(row, "architectures", model.architecture)) out.push_back(&row);
  return out;
}

// Every row that names the model counts ("LLaMA" stands for each LLaMA generation, "LLaMA 3" adds what
// it lists): a Y in any of them is a Y; the "." cells are kept only when no row says Y.
CellRead read_model_cells(const Record& m, const Record& format, const ModelSpec& model, const std::string& engine) {
  CellRead all;
  for (const json* row : model_rows(m, model)) {
    CellRead r;
    read_row(m, *row, format, engine, r);
    all.row_found = true;
    all.column_found = all.column_found || r.column_found;
    all.yes.insert(all.yes.end(), r.yes.begin(), r.yes.end());
    all.no.insert(all.no.end(), r.no.begin(), r.no.end());
  }
  if (!all.yes.empty()) all.no.clear();
  return all;
}

}  // namespace qsel::rule_util
