// qsel matrix: an engine's support matrix as a grid, or a grid of formats x parts
// derived from the format records' native/emulated lists.
#include <algorithm>

#include <fmt/format.h>

#include "qsel/core/errors.h"
#include "qsel/core/json_number.h"
#include "qsel/core/text.h"
#include "qsel/detect/resolve_gpu.h"
#include "qsel/explain/browse.h"
#include "qsel/rules/verdict.h"
#include "qsel/graph/engines.h"
#include "qsel/graph/selector.h"

namespace qsel {
using ojson = nlohmann::ordered_json;
namespace {

bool list_has(const ojson& list, const std::string& value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

ojson targets_matching(const Graph& g, const nlohmann::json& selector) {
  ojson ids = ojson::array();
  for (const Record* t : matching_targets(selector, g)) ids.push_back(t->id);
  return ids;
}

// A footnote is a string, or {text, excludes_formats}.
ojson footnote_json(const std::string& mark, const nlohmann::json& note) {
  if (note.is_string()) return {{"mark", mark}, {"text", note}};
  return {{"mark", mark}, {"text", note["text"]}, {"excludes_formats", ojson(array_field(note, "excludes_formats"))}};
}

// ---- one matrix record -------------------------------------------------------------

ojson columns_json(const nlohmann::json& m) {
  ojson cols = ojson::array();
  for (const auto& c : m["columns"])
    cols.push_back({{"key", c["key"]}, {"label", c["label"]}, {"formats", ojson(array_field(c, "formats"))},
                    {"kernel", ojson(c.value("kernel", nlohmann::json()))}});
  return cols;
}

ojson row_json(const Graph& g, const nlohmann::json& row, const ojson& columns) {
  ojson cells = ojson::object();
  for (const auto& c : columns) {
    std::string key = c["key"];
    cells[key] = row["cells"].contains(key) ? ojson(row["cells"][key]) : ojson();
  }
  if (!row.contains("match"))  // a per-model table's row: the model families it stands for
    return {{"key", row["key"]}, {"label", row["label"]}, {"targets", ojson::array()},
            {"models", ojson(object_field(row, "models"))}, {"cells", cells}};
  return {{"key", row["key"]}, {"label", row["label"]}, {"targets", targets_matching(g, row["match"])}, {"cells", cells}};
}

ojson grid_json(const Graph& g, const Record& m) {
  const Record* engine = g.find(m.str("engine"));
  ojson columns = columns_json(m.data);
  ojson rows = ojson::array();
  for (const auto& r : m.data["rows"]) rows.push_back(row_json(g, r, columns));
  ojson footnotes = ojson::array();
  const nlohmann::json notes = object_field(m.data, "footnotes");
  for (const auto& [mark, note] : notes.items()) footnotes.push_back(footnote_json(mark, note));
  ojson uncovered = ojson::array();
  for (const auto& u : array_field(m.data, "uncovered"))
    uncovered.push_back({{"targets", targets_matching(g, u["match"])}, {"note", u["note"]}});
  const auto& src = m.data["sources"][0];
  return {{"matrix", m.id}, {"name", m.name}, {"engine", m.str("engine")},
          {"engine_name", engine ? ojson(engine->name) : ojson()}, {"version", ojson(m.data.value("version", nlohmann::json()))},
          {"file", m.file}, {"source", {{"title", src["title"]}, {"url", ojson(src.value("url", nlohmann::json()))}}},
          {"columns", columns}, {"rows", rows}, {"footnotes", footnotes}, {"uncovered", uncovered}};
}

// The footnote mark of a cell: "Y*" -> "*", "Y" -> "".
std::string cell_mark(const ojson& cell) {
  std::string c = cell.is_string() ? cell.get<std::string>() : "";
  return !c.empty() && c[0] == 'Y' ? c.substr(1) : c == "." ? "" : c;
}

bool carried_by_selected_row(const ojson& grid, const ojson& mark) {
  for (const auto& r : grid["rows"]) {
    if (!r["selected"].get<bool>()) continue;
    for (const auto& [_, cell] : r["cells"].items())
      if (cell_mark(cell) == mark) return true;
  }
  return false;
}

// Drops the footnotes that no cell of a selected row carries.
void keep_footnotes_of_selected(ojson& grid) {
  ojson kept = ojson::array();
  for (const auto& f : grid["footnotes"])
    if (carried_by_selected_row(grid, f["mark"])) kept.push_back(f);
  grid["footnotes"] = kept;
}

// Marks the rows that cover the GPU's target and says what the matrix says about it.
void select_gpu(ojson& grid, const std::string& query, const GpuArg& gpu) {
  std::string target = gpu.target ? gpu.target->id : gpu.accelerator->str("target");
  ojson rows = ojson::array(), notes = ojson::array();
  for (auto& r : grid["rows"]) {
    r["selected"] = list_has(r["targets"], target);
    if (r["selected"]) rows.push_back(r["key"]);
  }
  for (const auto& u : grid["uncovered"])
    if (list_has(u["targets"], target)) notes.push_back(u["note"]);
  keep_footnotes_of_selected(grid);
  grid["gpu"] = {{"query", query},
                 {"accelerator", gpu.accelerator ? ojson(gpu.accelerator->id) : ojson()},
                 {"accelerator_name", gpu.accelerator ? ojson(gpu.accelerator->name) : ojson()},
                 {"target", target},
                 {"note", gpu.note.empty() ? ojson() : ojson(gpu.note)},
                 {"covered", !rows.empty()},
                 {"rows", rows},
                 {"uncovered_notes", notes}};
}

// --engine takes an engine id or alias (its own `matrix` first), or a matrix id or alias.
const Record& matrix_for(const Graph& g, const std::string& query) {
  Resolution r = g.resolve(query, Kind::Engine);
  if (!r) {
    if (Resolution m = g.resolve(query, Kind::Matrix)) return *m.record;
    throw_unknown("engine", query, r);
  }
  auto found = matrices_of(g, *r.record);
  if (!found.empty()) return *found.front();
  std::vector<std::string> engines;
  for (const Record* m : g.of_kind(Kind::Matrix))
    if (std::find(engines.begin(), engines.end(), m->str("engine")) == engines.end()) engines.push_back(m->str("engine"));
  throw UsageError(fmt::format("engine {} has no matrix record; {}", r.record->id,
                               engines.empty() ? "the corpus has none" : fmt::format("matrices exist for {}", fmt::join(engines, ", "))));
}

ojson list_json(const Graph& g) {
  ojson rows = ojson::array();
  for (const Record* m : g.of_kind(Kind::Matrix))
    rows.push_back({{"id", m->id}, {"engine", m->str("engine")}, {"rows", m->data["rows"].size()},
                    {"columns", m->data["columns"].size()}, {"name", m->name}});
  return {{"count", rows.size()}, {"matrices", rows}};
}

// ---- the derived grid: formats x parts -----------------------------------------------

std::vector<const Record*> derived_parts(const Graph& g, const std::string& vendor, const GpuArg* gpu) {
  std::vector<const Record*> parts;
  for (const Record* a : g.of_kind(Kind::Accelerator)) {
    if (!vendor.empty() && a->str("vendor") != vendor) continue;
    if (gpu && gpu->accelerator && a != gpu->accelerator) continue;
    if (gpu && !gpu->accelerator && a->str("target") != gpu->target->id) continue;
    parts.push_back(a);
  }
  std::stable_sort(parts.begin(), parts.end(), [](const Record* a, const Record* b) { return a->str("vendor") < b->str("vendor"); });
  return parts;
}

bool lists(const Record& format, const char* pointer, const std::string& part) {
  auto ids = format.strings(pointer);
  return std::find(ids.begin(), ids.end(), part) != ids.end();
}

std::string support_cell(const Record& format, const std::string& part) {
  bool native = lists(format, "/native_support", part), emulated = lists(format, "/emulated_support", part);
  return native && emulated ? "N+E" : native ? "N" : emulated ? "E" : "";
}

// The formats that name at least one of `parts`, each with a cell per part.
ojson derived_formats(const Graph& g, const std::vector<const Record*>& parts) {
  ojson formats = ojson::array();
  for (const Record* f : g.of_kind(Kind::Format)) {
    ojson cells = ojson::object();
    bool any = false;
    for (const Record* p : parts) {
      cells[p->id] = support_cell(*f, p->id);
      any = any || !cells[p->id].get<std::string>().empty();
    }
    if (any) formats.push_back({{"id", f->id}, {"regime", f->str("regime")}, {"cells", cells}});
  }
  return formats;
}

bool named_by_any(const ojson& formats, const std::string& part) {
  return std::any_of(formats.begin(), formats.end(), [&](const ojson& f) { return !f["cells"][part].get<std::string>().empty(); });
}

// Parts no format names are listed apart instead of drawn as empty columns.
ojson derived_json(const Graph& g, const std::string& vendor, const GpuArg* gpu) {
  auto parts = derived_parts(g, vendor, gpu);
  ojson formats = derived_formats(g, parts);
  ojson shown = ojson::array(), unlisted = ojson::array();
  for (const Record* p : parts) {
    if (named_by_any(formats, p->id)) shown.push_back({{"id", p->id}, {"vendor", p->str("vendor")}, {"target", p->str("target")}});
    else unlisted.push_back(p->id);
  }
  for (auto& f : formats)
    for (const auto& id : unlisted) f["cells"].erase(id.get<std::string>());
  return {{"derived", true}, {"vendor", vendor.empty() ? ojson() : ojson(vendor)},
          {"legend", {{"N", "native_support"}, {"E", "emulated_support"}}},
          {"parts", shown}, {"formats", formats}, {"unlisted", unlisted}};
}

// ---- qsel's verdicts: formats x targets -------------------------------------------------------

// Every weight format against every target (of `vendor`), each cell the verdict explain
// gives for the format on the target's parts, with its reasons; targets no engine serves
// and formats with no verdict anywhere are left out and named.
ojson verdicts_json(const Graph& g, const std::string& vendor) {
  std::vector<const Record*> targets;
  for (const Record* t : g.of_kind(Kind::Target))
    if (vendor.empty() || t->str("vendor") == vendor) targets.push_back(t);
  ojson formats = ojson::array(), shown_targets = ojson::array(), left_out = ojson::array();
  std::vector<bool> used(targets.size(), false);
  for (const Record* f : g.of_kind(Kind::Format)) {
    if (f->str("regime") == "kv-cache" || f->str("scheme") == "category") continue;
    ojson cells = ojson::object();
    bool any = false;
    for (std::size_t i = 0; i < targets.size(); ++i) {
      Query q;
      q.target = targets[i];
      Verdict v = format_verdict(g, q, *f);
      cells[targets[i]->id] = {{"verdict", v.value}, {"reasons", v.reasons}};
      if (v.value != "unknown" && v.value != "unsupported") any = used[i] = true;
    }
    if (any) formats.push_back({{"id", f->id}, {"name", f->name}, {"regime", f->str("regime")}, {"cells", cells}});
    else left_out.push_back(f->id);
  }
  ojson unused = ojson::array();
  for (std::size_t i = 0; i < targets.size(); ++i) {
    if (used[i]) shown_targets.push_back({{"id", targets[i]->id}, {"name", targets[i]->name}, {"vendor", targets[i]->str("vendor")}});
    else unused.push_back(targets[i]->id);
  }
  for (auto& f : formats)
    for (const auto& id : unused) f["cells"].erase(id.get<std::string>());
  return {{"verdicts", true}, {"vendor", vendor.empty() ? ojson() : ojson(vendor)},
          {"legend", {{"native", "runs on the format's own matrix unit"}, {"dequant", "weights upcast to a 16-bit matrix unit"},
                      {"emulated", "runs without the format's matrix unit, by a slower path"},
                      {"contested", "records disagree: a higher source says it does not run"},
                      {"unsupported", "a record or rule refuses it"}, {"unknown", "no engine record serves it and none refuses it"}}},
          {"targets", shown_targets}, {"formats", formats}, {"formats_left_out", left_out}, {"targets_left_out", unused}};
}

// ---- the answer ---------------------------------------------------------------------------

void check_options(const MatrixQuery& o) {
  if (o.derived && !o.engine.empty())
    throw UsageError("--derived is built from the format records, not from an engine's matrix; drop --engine");
  if (o.verdicts && (o.derived || !o.engine.empty() || !o.gpu.empty()))
    throw UsageError("--verdicts draws every format on every target; drop --engine, --gpu and --derived");
  if (!o.derived && !o.verdicts && !o.vendor.empty()) throw UsageError("--vendor applies to the derived or verdict grid; add --derived or --verdicts");
}

}  // namespace

ojson matrix_answer(const Graph& g, const MatrixQuery& o) {
  check_options(o);
  if (!o.vendor.empty()) require_one_of(o.vendor, o.vendors, "vendor");
  GpuArg gpu;
  if (!o.gpu.empty()) gpu = resolve_gpu(g, o.gpu, true);
  if (o.derived) return derived_json(g, o.vendor, o.gpu.empty() ? nullptr : &gpu);
  if (o.verdicts) return verdicts_json(g, o.vendor);
  if (o.engine.empty() && o.gpu.empty()) return list_json(g);
  std::vector<const Record*> ms;
  if (!o.engine.empty()) ms.push_back(&matrix_for(g, o.engine));
  else ms = g.of_kind(Kind::Matrix);
  ojson grids = ojson::array();
  for (const Record* m : ms) {
    grids.push_back(grid_json(g, *m));
    if (!o.gpu.empty()) select_gpu(grids.back(), o.gpu, gpu);
  }
  if (grids.size() == 1) return grids[0];
  return {{"grids", grids}};
}

}  // namespace qsel
