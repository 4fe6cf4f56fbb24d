// qsel matrix: a support grid, the derived formats x parts grid and the list of
// matrix records, as text, CSV and Markdown.
#include <algorithm>

#include <fmt/format.h>

#include "qsel/report/browse_report.h"
#include "qsel/report/table.h"
#include "qsel/report/render.h"

namespace qsel {

// ---- shared helpers ------------------------------------------------------------------

std::string csv_line(const std::vector<std::string>& fields) {
  std::string out;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const std::string& f = fields[i];
    if (i) out += ',';
    if (f.find_first_of(",\"\n\r") == std::string::npos) {
      out += f;
      continue;
    }
    out += '"';
    for (char c : f) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    out += '"';
  }
  return out + "\n";
}

std::string markdown_escape(std::string_view s) {
  std::string out;
  for (char c : s) {
    unsigned char u = static_cast<unsigned char>(c);
    if (c == '\n' || c == '\r' || c == '\t' || (u < 0x20) || u == 0x7f) {
      out += ' ';  // a control character would end the row or reach the terminal
      continue;
    }
    if (std::string_view("\\`*_[]<>|").find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

std::string markdown_url(std::string_view url) {
  if (url.substr(0, 8) != "https://" && url.substr(0, 7) != "http://") return "#";
  std::string out;
  for (char c : url) {
    unsigned char u = static_cast<unsigned char>(c);
    if (u <= 0x20 || u == 0x7f || c == '<' || c == '>' || c == '"') out += fmt::format("%{:02X}", u);
    else out += c;
  }
  return out;
}

std::string markdown_table(const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::vector<std::string>> escaped;
  for (const auto& r : rows) {
    escaped.emplace_back();
    for (const auto& c : r) escaped.back().push_back(markdown_escape(c));
  }
  std::vector<std::string> head;
  for (const auto& h : header) head.push_back(markdown_escape(h));
  return markdown_table_raw(head, escaped);
}

std::string markdown_table_raw(const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows) {
  auto line = [](const std::vector<std::string>& cells) {
    std::string l = "|";
    for (const auto& c : cells) l += " " + c + " |";
    return l + "\n";
  };
  std::string out = line(header) + "|";
  for (std::size_t i = 0; i < header.size(); ++i) out += " --- |";
  out += "\n";
  for (const auto& r : rows) out += line(r);
  return out;
}

std::vector<std::string> wrap_label(const std::string& label, std::size_t width) {
  std::vector<std::string> pieces;  // break points: after ' ', '/', '-', before '('
  std::string cur;
  for (char c : label) {
    if (c == '(' && !cur.empty()) { pieces.push_back(cur); cur.clear(); }
    cur += c;
    if (c == ' ' || c == '/' || c == '-') { pieces.push_back(cur); cur.clear(); }
  }
  if (!cur.empty()) pieces.push_back(cur);
  std::vector<std::string> lines;
  std::string line;
  auto trimmed = [](std::string s) { while (!s.empty() && s.back() == ' ') s.pop_back(); return s; };
  for (const auto& p : pieces) {
    if (!line.empty() && visible_width(trimmed(line + p)) > width) {
      lines.push_back(trimmed(line));
      line.clear();
    }
    line += p;
  }
  if (!trimmed(line).empty()) lines.push_back(trimmed(line));
  return lines;
}

namespace {

constexpr std::size_t kHeaderWidth = 10;  // column labels wrap at this width
constexpr std::size_t kListedTargets = 6;  // targets named before "… N more"

std::string joined_ids(const ojson& ids, std::size_t limit = kListedTargets) {
  std::vector<std::string> shown;
  for (const auto& id : ids) {
    if (shown.size() == limit) { shown.push_back(fmt::format("… {} more", ids.size() - limit)); break; }
    shown.push_back(cell_text(id));
  }
  return fmt::format("{}", fmt::join(shown, ", "));
}

std::string colored_cell(const ojson& v, const Style& st) {
  std::string c = cell_text(v);
  if (c == "Y") return st.green(c);
  if (c == "." || c == "-") return st.dim(c);
  return st.yellow(c);
}

using Rows = std::vector<std::vector<std::string>>;

// A table whose first row is laid out like the others (Table needs its column count up front),
// fitted to `width`: when the grid is wider, its columns past the `lead` label columns go
// in panels one under another, each repeating the labels; the last `trailing` columns
// (a list of targets) go with the last panel and wrap.
std::string table_text(const Rows& rows, std::size_t width, std::size_t lead, std::size_t trailing = 0) {
  std::size_t n = rows.at(0).size();
  std::vector<std::size_t> w(n, 0);
  for (const auto& r : rows)
    for (std::size_t c = 0; c < r.size() && c < n; ++c) w[c] = std::max(w[c], visible_width(r[c]));
  auto table = [&](const std::vector<std::size_t>& columns) {
    auto pick = [&](const std::vector<std::string>& r) {
      std::vector<std::string> out;
      for (std::size_t c : columns) out.push_back(c < r.size() ? r[c] : "");
      return out;
    };
    // A panel's header is as tall as its own labels: rows blank in its columns are left out.
    std::vector<std::vector<std::string>> kept;
    for (const auto& r : rows) {
      auto cells = pick(r);
      if (std::any_of(cells.begin(), cells.end(), [](const std::string& c) { return visible_width(c) > 0; })) kept.push_back(cells);
    }
    if (kept.empty()) return std::string();
    Table t(kept[0]);
    for (std::size_t i = 1; i < kept.size(); ++i) t.add(kept[i]);
    t.wrap_to(width, 0);
    return t.render();
  };
  std::size_t lead_width = 0;
  for (std::size_t c = 0; c < lead && c < n; ++c) lead_width += w[c] + 2;
  std::size_t last = n - std::min(n, trailing);
  std::size_t tail = 0;  // the trailing columns' room in the last panel: some of it, they wrap
  for (std::size_t c = last; c < n; ++c) tail += std::min<std::size_t>(w[c], 16) + 2;
  std::vector<std::vector<std::size_t>> panels;
  std::vector<std::size_t> cur;
  std::size_t used = lead_width;
  for (std::size_t c = lead; c < last; ++c) {
    bool final_column = c + 1 == last;
    std::size_t need = w[c] + 2 + (final_column ? tail : 0);
    if (!cur.empty() && used + need > width + 2) {
      panels.push_back(cur);
      cur.clear();
      used = lead_width;
    }
    cur.push_back(c);
    used += w[c] + 2;
  }
  panels.push_back(cur);
  std::string out;
  for (std::size_t p = 0; p < panels.size(); ++p) {
    std::vector<std::size_t> columns;
    for (std::size_t c = 0; c < lead && c < n; ++c) columns.push_back(c);
    columns.insert(columns.end(), panels[p].begin(), panels[p].end());
    if (p + 1 == panels.size())
      for (std::size_t c = last; c < n; ++c) columns.push_back(c);
    out += (p ? "\n" : "") + table(columns);
  }
  return out;
}

// Header rows over `first` empty leading columns: each label wrapped, the lines bottom-aligned.
Rows wrapped_header(std::size_t first, const std::vector<std::string>& labels, const std::string& trailing, const Style& st) {
  std::vector<std::vector<std::string>> wrapped;
  std::size_t height = 1;
  for (const auto& l : labels) {
    wrapped.push_back(wrap_label(l, kHeaderWidth));
    height = std::max(height, wrapped.back().size());
  }
  Rows rows;
  for (std::size_t line = 0; line < height; ++line) {
    std::vector<std::string> row(first, "");
    for (const auto& w : wrapped) {
      std::size_t pad = height - w.size();
      row.push_back(line >= pad ? st.bold(w[line - pad]) : "");
    }
    row.push_back(line + 1 == height ? st.dim(trailing) : "");
    rows.push_back(row);
  }
  return rows;
}

bool gpu_mode(const ojson& grid) { return grid.contains("gpu"); }

std::string gpu_line(const ojson& gpu, const ojson& rows) {
  std::string who = gpu["accelerator"].is_string()
                        ? fmt::format("{} ({}), target {}", cell_text(gpu["accelerator"]), cell_text(gpu["accelerator_name"]), cell_text(gpu["target"]))
                        : fmt::format("target {}", cell_text(gpu["target"]));
  if (gpu["note"].is_string()) who += fmt::format(" [{}]", cell_text(gpu["note"]));
  if (!gpu["covered"].get<bool>()) return who + ": not covered by this matrix\n";
  std::vector<std::string> labels;
  for (const auto& r : rows)
    if (r.value("selected", false)) labels.push_back(cell_text(r["label"]));
  return fmt::format("{}: row {}\n", who, fmt::join(labels, ", "));
}

// The grid with its column labels written out, or, when that is wider than the
// terminal, numbered 1…N over the columns with a legend under the grid.
std::string grid_body(const ojson& grid, const Style& st) {
  std::vector<std::string> labels;
  for (const auto& c : grid["columns"]) labels.push_back(cell_text(c["label"]));
  // A per-model table's rows stand for model families, not targets.
  bool per_model = std::any_of(grid["rows"].begin(), grid["rows"].end(), [](const ojson& r) { return r.contains("models"); });
  auto body = [&](const std::vector<std::string>& heads) {
    Rows t = wrapped_header(1, heads, per_model ? "models" : "targets", st);
    for (const auto& r : grid["rows"]) {
      if (gpu_mode(grid) && !r.value("selected", false)) continue;
      std::vector<std::string> row{st.bold(cell_text(r["label"]))};
      for (const auto& c : grid["columns"]) row.push_back(colored_cell(r["cells"][cell_text(c["key"])], st));
      row.push_back(st.dim(joined_ids(per_model ? r["models"].value("families", ojson::array()) : r["targets"])));
      t.push_back(row);
    }
    return t;
  };
  auto widest = [](const Rows& rows) {
    Table t(rows.at(0));
    for (std::size_t i = 1; i < rows.size(); ++i) t.add(rows[i]);
    return t.natural_width(0);
  };
  Rows named = body(labels);
  // The targets column wraps: it need not fit whole, some of it must.
  std::size_t targets = 0;
  for (const auto& r : named) targets = std::max(targets, visible_width(r.back()));
  if (widest(named) - targets + std::min<std::size_t>(targets, 16) <= st.width) return table_text(named, st.width, 1, 1);
  std::vector<std::string> numbers;
  std::string legend, line = st.dim("columns:");
  for (std::size_t i = 0; i < labels.size(); ++i) {
    numbers.push_back(std::to_string(i + 1));
    // Each "N label" kept on one line when it fits on one.
    std::string item = fmt::format("{} {}{}", i + 1, labels[i], i + 1 < labels.size() ? ";" : "");
    if (visible_width(line) + 1 + visible_width(item) > st.width && visible_width(line) > 2) {
      legend += line + "\n";
      line = " ";
    }
    line += " " + item;
  }
  return table_text(body(numbers), st.width, 1, 1) + legend + line + "\n";
}

std::string excludes(const ojson& footnote) {
  if (footnote.value("excludes_formats", ojson::array()).empty()) return "";
  return " (excludes " + markdown_escape(joined_ids(footnote["excludes_formats"], 100)) + ")";
}

std::string grid_notes(const ojson& grid, const Style& st) {
  std::string out;
  if (!grid["footnotes"].empty()) {
    out += "\n" + st.bold("footnotes") + "\n";
    for (const auto& f : grid["footnotes"]) out += fmt::format("  {}  {}{}\n", cell_text(f["mark"]), cell_text(f["text"]), excludes(f));
  }
  const ojson& notes = gpu_mode(grid) ? grid["gpu"]["uncovered_notes"] : ojson::array();
  if (gpu_mode(grid)) {
    if (!notes.empty()) out += "\n" + st.bold("not covered") + "\n";
    for (const auto& n : notes) out += "  " + st.yellow(cell_text(n)) + "\n";
    if (!grid["gpu"]["covered"].get<bool>() && notes.empty()) out += "\n" + st.yellow("the matrix says nothing about this target") + "\n";
  } else if (!grid["uncovered"].empty()) {
    out += "\n" + st.bold("not covered") + "\n";
    for (const auto& u : grid["uncovered"])
      out += fmt::format("  {}{}\n", cell_text(u["note"]), u["targets"].empty() ? "" : st.dim(" (" + joined_ids(u["targets"]) + ")"));
  }
  return out;
}

std::string render_grid(const ojson& grid, const Style& st) {
  std::string out = fmt::format("{}  {}\n", st.bold(cell_text(grid["matrix"])), cell_text(grid["name"]));
  out += fmt::format("  engine   {}{}\n", cell_text(grid["engine"]), grid["engine_name"].is_string() ? " (" + cell_text(grid["engine_name"]) + ")" : "");
  if (grid["version"].is_string()) out += st.dim("  version  " + cell_text(grid["version"])) + "\n";
  if (gpu_mode(grid)) out += "  gpu      " + gpu_line(grid["gpu"], grid["rows"]);
  if (!gpu_mode(grid) || grid["gpu"]["covered"].get<bool>()) out += "\n" + grid_body(grid, st);
  out += grid_notes(grid, st);
  std::string url = grid["source"]["url"].is_string() ? " <" + cell_text(grid["source"]["url"]) + ">" : "";
  out += "\n" + st.dim("source: " + cell_text(grid["source"]["title"]) + url) + "\n";
  return out;
}

// Column ids written downwards above their columns, bottom-aligned, after two label columns.
Rows column_heads(const ojson& columns, const Style& st) {
  std::size_t height = 1;
  for (const auto& c : columns) height = std::max(height, cell_text(c["id"]).size());
  Rows t;
  for (std::size_t line = 0; line < height; ++line) {
    std::vector<std::string> row{"", ""};
    for (const auto& c : columns) {
      std::string id = cell_text(c["id"]);
      std::size_t pad = height - id.size();
      row.push_back(line >= pad ? st.bold(std::string(1, id[line - pad])) : "");
    }
    t.push_back(row);
  }
  return t;
}

std::string render_derived(const ojson& d, const Style& st) {
  std::string out = st.bold("formats x parts") + " from the format records: N = native_support, E = emulated_support";
  out += d["vendor"].is_string() ? fmt::format(" (vendor {})\n", cell_text(d["vendor"])) : "\n";
  Rows t = column_heads(d["parts"], st);
  for (const auto& f : d["formats"]) {
    std::vector<std::string> row{st.bold(cell_text(f["id"])), st.dim(cell_text(f["regime"]))};
    for (const auto& p : d["parts"]) {
      std::string c = cell_text(f["cells"][cell_text(p["id"])]);
      row.push_back(c == "N" ? st.green(c) : c.empty() ? st.dim("·") : st.yellow(c));
    }
    t.push_back(row);
  }
  out += "\n" + table_text(t, st.width, 2);
  out += st.dim(fmt::format("{} formats x {} parts", d["formats"].size(), d["parts"].size())) + "\n";
  if (!d["unlisted"].empty()) out += st.dim("no format record names " + joined_ids(d["unlisted"], 100)) + "\n";
  return out;
}

// A verdict's letter and colour in the text grid.
std::string verdict_cell(const std::string& v, const Style& st) {
  if (v == "native") return st.green("N");
  if (v == "dequant") return st.cyan("D");
  if (v == "emulated") return st.yellow("E");
  if (v == "contested") return st.red("C");
  if (v == "unsupported") return st.dim("x");
  return st.dim("·");
}

std::string render_verdicts(const ojson& d, const Style& st) {
  std::string out = st.bold("formats x targets") +
                    ", qsel's verdict (explain FORMAT --on TARGET): N native, D dequant, E emulated, C contested, x unsupported, · unknown";
  out += d["vendor"].is_string() ? fmt::format(" (vendor {})\n", cell_text(d["vendor"])) : "\n";
  Rows t = column_heads(d["targets"], st);
  for (const auto& f : d["formats"]) {
    std::vector<std::string> row{st.bold(cell_text(f["id"])), st.dim(cell_text(f["regime"]))};
    for (const auto& p : d["targets"]) row.push_back(verdict_cell(cell_text(f["cells"][cell_text(p["id"])]["verdict"]), st));
    t.push_back(row);
  }
  out += "\n" + table_text(t, st.width, 2);
  out += st.dim(fmt::format("{} formats x {} targets; --format json has each cell's reasons, --format html draws them",
                            d["formats"].size(), d["targets"].size())) + "\n";
  return out;
}

std::string render_matrix_list(const ojson& r, const Style& st) {
  Table t({"id", "engine", "rows", "columns", "name"});
  for (const auto& m : r["matrices"])
    t.add({st.bold(cell_text(m["id"])), cell_text(m["engine"]), cell_text(m["rows"]), cell_text(m["columns"]), cell_text(m["name"])});
  t.wrap_to(st.width, 0, {3, 2, 1});
  std::string note = t.dropped().empty() ? ""
                     : wrap(fmt::format("{}: shown from {} columns (a wider terminal, or COLUMNS={}); --format json has every field",
                                        fmt::join(t.dropped(), ", "), t.wrap_width(), t.wrap_width()), st.width, "", "  ");
  return t.render() + st.dim(note) + st.dim(fmt::format("{} matrices; `qsel matrix --engine ENGINE` draws one", r["count"].get<std::size_t>())) + "\n";
}

// ---- CSV and Markdown ----------------------------------------------------------------------

struct Flat {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
};

Flat flat_grid(const ojson& grid) {
  Flat f{{"row", "label"}, {}};
  for (const auto& c : grid["columns"]) f.header.push_back(cell_text(c["label"]));
  f.header.push_back("targets");
  for (const auto& r : grid["rows"]) {
    if (gpu_mode(grid) && !r.value("selected", false)) continue;
    std::vector<std::string> row{cell_text(r["key"]), cell_text(r["label"])};
    for (const auto& c : grid["columns"]) row.push_back(cell_text(r["cells"][cell_text(c["key"])]));
    std::vector<std::string> targets;
    for (const auto& t : r["targets"]) targets.push_back(cell_text(t));
    row.push_back(fmt::format("{}", fmt::join(targets, " ")));
    f.rows.push_back(row);
  }
  return f;
}

Flat flat_derived(const ojson& d) {
  Flat f{{"format", "regime"}, {}};
  for (const auto& p : d["parts"]) f.header.push_back(cell_text(p["id"]));
  for (const auto& fm : d["formats"]) {
    std::vector<std::string> row{cell_text(fm["id"]), cell_text(fm["regime"])};
    for (const auto& p : d["parts"]) row.push_back(cell_text(fm["cells"][cell_text(p["id"])]));
    f.rows.push_back(row);
  }
  return f;
}

Flat flat_verdicts(const ojson& d) {
  Flat f{{"format", "regime"}, {}};
  for (const auto& t : d["targets"]) f.header.push_back(cell_text(t["id"]));
  for (const auto& fm : d["formats"]) {
    std::vector<std::string> row{cell_text(fm["id"]), cell_text(fm["regime"])};
    for (const auto& t : d["targets"]) row.push_back(cell_text(fm["cells"][cell_text(t["id"])]["verdict"]));
    f.rows.push_back(row);
  }
  return f;
}

Flat flat_list(const ojson& r) {
  Flat f{{"id", "engine", "rows", "columns", "name"}, {}};
  for (const auto& m : r["matrices"]) f.rows.push_back({cell_text(m["id"]), cell_text(m["engine"]), cell_text(m["rows"]), cell_text(m["columns"]), cell_text(m["name"])});
  return f;
}

Flat flat(const ojson& r) {
  if (r.contains("matrices")) return flat_list(r);
  if (r.contains("derived")) return flat_derived(r);
  if (r.contains("verdicts")) return flat_verdicts(r);
  return flat_grid(r);
}

std::string markdown_notes(const ojson& grid) {
  std::string out;
  for (const auto& fn : grid["footnotes"]) out += fmt::format("- {}: {}{}\n", markdown_escape(cell_text(fn["mark"])), markdown_escape(cell_text(fn["text"])), excludes(fn));
  const ojson& notes = gpu_mode(grid) ? grid["gpu"]["uncovered_notes"] : ojson::array();
  for (const auto& n : notes) out += "- Not covered: " + markdown_escape(cell_text(n)) + "\n";
  if (!gpu_mode(grid))
    for (const auto& u : grid["uncovered"]) out += "- Not covered: " + cell_text(u["note"]) + "\n";
  return out;
}

// Paragraphs: title, GPU line, table, notes, source — separated by blank lines.
std::string markdown_grid(const ojson& grid) {
  Flat f = flat_grid(grid);
  f.header.erase(f.header.begin());
  for (auto& r : f.rows) r.erase(r.begin());
  std::vector<std::string> blocks{fmt::format("**{}** — {} (engine {})\n", cell_text(grid["matrix"]), cell_text(grid["name"]), cell_text(grid["engine"]))};
  if (gpu_mode(grid)) blocks.push_back("GPU: " + gpu_line(grid["gpu"], grid["rows"]));
  if (!f.rows.empty()) blocks.push_back(markdown_table(f.header, f.rows));
  if (std::string notes = markdown_notes(grid); !notes.empty()) blocks.push_back(notes);
  std::string title = cell_text(grid["source"]["title"]);
  blocks.push_back(grid["source"]["url"].is_string()
                       ? fmt::format("Source: [{}](<{}>)\n", markdown_escape(title), markdown_url(cell_text(grid["source"]["url"])))
                       : fmt::format("Source: {}\n", markdown_escape(title)));
  return fmt::format("{}", fmt::join(blocks, "\n"));
}

}  // namespace

namespace {

std::string render_matrix_unfitted(const ojson& r, const Style& st) {
  if (r.contains("matrices")) return render_matrix_list(r, st);
  if (r.contains("derived")) return render_derived(r, st);
  if (r.contains("verdicts")) return render_verdicts(r, st);
  if (!r.contains("grids")) return render_grid(r, st);
  std::string out;
  for (const auto& g : r["grids"]) out += (out.empty() ? "" : "\n") + render_grid(g, st);
  return out;
}

}  // namespace

// The tables are fitted as they are laid out; the titles, notes and sources here.
std::string render_matrix(const ojson& r, const Style& st) { return fit_lines(render_matrix_unfitted(r, st), st.width); }

std::string render_matrix_csv(const ojson& r) {
  Flat f = flat(r);
  std::string out = csv_line(f.header);
  for (const auto& row : f.rows) out += csv_line(row);
  return out;
}

std::string render_matrix_markdown(const ojson& r) {
  if (r.contains("grids")) {
    std::string out;
    for (const auto& g : r["grids"]) out += (out.empty() ? "" : "\n") + markdown_grid(g);
    return out;
  }
  if (r.contains("matrices") || r.contains("derived") || r.contains("verdicts")) {
    Flat f = flat(r);
    return markdown_table(f.header, f.rows);
  }
  return markdown_grid(r);
}

}  // namespace qsel
