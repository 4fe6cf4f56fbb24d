#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "qsel/core/citation.h"

#include "qsel/core/text.h"
#include "qsel/report/browse_report.h"
#include "qsel/report/render.h"
#include "qsel/report/table.h"

namespace qsel {

ojson in_source_order(const nlohmann::json& data, const Marks& marks, const std::string& pointer) {
  if (data.is_array()) {
    ojson out = ojson::array();
    for (std::size_t i = 0; i < data.size(); ++i) out.push_back(in_source_order(data[i], marks, pointer_child(pointer, std::to_string(i))));
    return out;
  }
  if (!data.is_object()) return ojson(data);
  std::vector<std::pair<Mark, std::string>> keys;
  for (const auto& [k, _] : data.items()) keys.emplace_back(marks.key_or_value(pointer_child(pointer, k)), k);
  std::stable_sort(keys.begin(), keys.end(), [](const auto& a, const auto& b) {
    return std::pair(a.first.line, a.first.column) < std::pair(b.first.line, b.first.column);
  });
  ojson out = ojson::object();
  for (const auto& [_, k] : keys) out[k] = in_source_order(data[k], marks, pointer_child(pointer, k));
  return out;
}

ojson terminal_safe(const ojson& j, bool keep_newlines) {
  auto safe = [&](const std::string& s) { return keep_newlines ? printable_lines(s) : printable(s); };
  if (j.is_string()) return safe(j.get<std::string>());
  if (j.is_array()) {
    ojson out = ojson::array();
    for (const auto& x : j) out.push_back(terminal_safe(x, keep_newlines));
    return out;
  }
  if (j.is_object()) {
    ojson out = ojson::object();
    for (const auto& [k, v] : j.items()) out[safe(k)] = terminal_safe(v, keep_newlines);
    return out;
  }
  return j;
}

std::string cell_text(const ojson& v) {
  if (v.is_null()) return "-";
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "yes" : "no";
  if (v.is_number_float()) return fmt::format("{:g}", v.get<double>());
  if (v.is_number()) return v.dump();
  if (v.is_array()) {
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "" : ", ") + cell_text(x);
    return s;
  }
  return v.dump();
}

std::string labelled_line(const Style& st, std::string_view label, const std::string& text, std::size_t width) {
  std::string first = st.bold(label) + std::string(label.size() < width ? width - label.size() : 1, ' ');
  if (visible_width(first + text) <= st.width) return first + text + "\n";
  return wrap(text, st.width, first, std::string(std::max(width, label.size() + 1), ' '));
}

std::string heading_line(const Style& st, const std::string& id, const std::string& kind, const std::string& name) {
  std::string first = st.bold(id) + "  " + st.cyan(kind) + "  ";
  std::size_t at = visible_width(first);
  if (at + visible_width(name) <= st.width) return first + name + "\n";
  return wrap(name, st.width, first, std::string(at <= st.width / 2 ? at : 2, ' '));
}

std::string string_or_empty(const ojson& v) { return v.is_string() ? v.get<std::string>() : ""; }

std::string printable_value(const ojson& v) { return printable(v.is_string() ? v.get<std::string>() : v.dump()); }

namespace {

bool is_flat_list(const ojson& v) {
  if (!v.is_array()) return false;
  std::size_t len = 0;
  for (const auto& x : v) {
    if (x.is_object() || x.is_array()) return false;
    len += cell_text(x).size() + 2;
  }
  return len < 100;
}

// `first` then `text` on a line, broken by wrap() only when wider than `width` (a
// line that fits keeps its spacing as written).
std::string fitted(const std::string& text, std::size_t width, const std::string& first, const std::string& rest) {
  std::string line = first + text;
  return visible_width(line) <= width ? line + "\n" : wrap(text, width, first, rest);
}

void fields(const ojson& data, const Style& st, int indent, std::string& out) {
  std::string pad(static_cast<std::size_t>(indent), ' ');
  std::size_t width = st.width;
  for (const auto& [k, v] : data.items()) {
    if (v.is_object()) {
      out += pad + st.bold(k) + ":\n";
      fields(v, st, indent + 2, out);
    } else if (v.is_array() && !is_flat_list(v)) {
      out += pad + st.bold(k) + ":\n";
      for (const auto& x : v) {
        if (x.is_object()) {
          std::string inner;
          fields(x, st, indent + 4, inner);
          inner.replace(static_cast<std::size_t>(indent) + 2, 2, "- ");
          out += inner;
        } else {
          out += fitted(cell_text(x), width, pad + "  - ", pad + "    ");
        }
      }
    } else if (v.is_string() && v.get<std::string>().find('\n') != std::string::npos) {
      out += pad + st.bold(k) + ":\n";
      std::string s = v.get<std::string>(), line;
      for (std::size_t i = 0; i <= s.size(); ++i) {
        if (i == s.size() || s[i] == '\n') {
          if (!line.empty() || i < s.size()) out += line.empty() ? pad + "  \n" : fitted(line, width, pad + "  ", pad + "  ");
          line.clear();
        } else {
          line += s[i];
        }
      }
    } else {
      out += fitted(v.is_array() ? "[" + cell_text(v) + "]" : cell_text(v), width, pad + st.bold(k) + ": ", pad + "    ");
    }
  }
}

}  // namespace

std::string render_fields(const ojson& data, const Style& style, int indent) {
  std::string out;
  fields(data, style, indent, out);
  return out;
}

std::string render_list(const ojson& result, const Style& st) {
  if (result.contains("kinds")) {
    Table t({"kind", "records", "folder"});
    for (const auto& k : result["kinds"]) t.add({k["kind"], cell_text(k["count"]), k["folder"]});
    t.wrap_to(st.width, 0);
    return t.render();
  }
  std::vector<std::string> header;
  for (const auto& c : result["columns"])
    if (!c.value("detail", false)) header.push_back(c["header"]);
  Table t(header);
  for (const auto& r : result["records"]) {
    std::vector<std::string> row;
    for (const auto& c : result["columns"]) {
      if (c.value("detail", false)) continue;
      std::string key = c["key"];
      row.push_back(key == "id" ? st.bold(r[key].get<std::string>()) : cell_text(r.value(key, ojson())));
    }
    t.add(row);
  }
  // Too wide even wrapped: the columns between the id and the last leave, the rightmost first.
  std::vector<std::size_t> drop;
  for (std::size_t c = header.size() >= 2 ? header.size() - 2 : 0; c >= 1 && c < header.size(); --c) drop.push_back(c);
  t.wrap_to(st.width, 0, drop);
  std::string out = result["records"].empty() ? "" : t.render();
  if (auto dropped = t.dropped(); !dropped.empty() && !result["records"].empty())
    out += st.dim(wrap(fmt::format("{}: shown from {} columns (a wider terminal, or COLUMNS={}); --format json has every field",
                                   fmt::join(dropped, ", "), t.wrap_width(), t.wrap_width()), st.width, "", "  "));
  std::vector<std::string> filters;
  for (const auto& f : result.value("filters", ojson::array())) {
    std::string value = f["value"], resolved = f["resolved"];
    filters.push_back(f["flag"].get<std::string>() + " " + value + (resolved == value ? "" : " → " + resolved));
  }
  out += fit_lines(st.dim(fmt::format("{} {}{}\n", result["count"].get<std::size_t>(),
                            result["count"] == 1 ? result["kind"].get<std::string>() : result["plural"].get<std::string>(),
                            filters.empty() ? "" : fmt::format(" ({})", fmt::join(filters, ", ")))), st.width);
  return out;
}

std::string render_list_markdown(const ojson& result) {
  if (result.contains("kinds")) {
    std::vector<std::vector<std::string>> rows;
    for (const auto& k : result["kinds"]) rows.push_back({k["kind"], cell_text(k["count"]), k["folder"]});
    return markdown_table({"kind", "records", "folder"}, rows);
  }
  std::vector<std::string> header;
  for (const auto& c : result["columns"]) header.push_back(markdown_escape(c["header"].get<std::string>()));
  header.push_back("sources");
  std::vector<std::vector<std::string>> rows;
  std::string links;
  for (const auto& r : result["records"]) {
    std::vector<std::string> row;
    for (const auto& c : result["columns"]) {
      const ojson& v = r.value(c["key"].get<std::string>(), ojson());
      row.push_back(v.is_null() ? "—" : markdown_escape(cell_text(v)));
    }
    std::vector<std::string> refs;
    std::size_t n = 0;
    for (const auto& src : r.value("sources", ojson::array())) {
      ++n;
      std::string label = fmt::format("{}.{}", r["id"].get<std::string>(), n);
      if (!src["url"].is_string()) {
        refs.push_back(fmt::format("{}", n));
        continue;
      }
      refs.push_back(fmt::format("[{}][{}]", n, label));
      std::string title;
      for (char ch : src.value("title", std::string()))  // a link title is quoted: keep it one line, no quotes
        title += ch == '"' ? '\'' : (ch == '\n' || ch == '\r' ? ' ' : ch);
      links += fmt::format("[{}]: <{}> \"{}\"\n", label, markdown_url(src["url"].get<std::string>()), title);
    }
    row.push_back(refs.empty() ? "none recorded" : fmt::format("{}", fmt::join(refs, " ")));
    rows.push_back(std::move(row));
  }
  std::string title = fmt::format("# {} {}\n\n", result["count"].get<std::size_t>(),
                                  result["count"] == 1 ? result["kind"].get<std::string>() : result["plural"].get<std::string>());
  std::vector<std::string> filters;
  for (const auto& f : result.value("filters", ojson::array()))
    filters.push_back(markdown_escape(f["flag"].get<std::string>() + " " + f["resolved"].get<std::string>()));
  std::string intro = filters.empty() ? "" : fmt::format("Filtered by {}.\n\n", fmt::join(filters, ", "));
  intro += "Numbers are the records' own; \"—\" means the record does not give the figure (its notes say why). Each "
           "record's sources are linked by number; the record file quotes the passage each number comes from.\n\n";
  return title + intro + markdown_table_raw(header, rows) + (links.empty() ? "" : "\n" + links);
}

std::string render_show(const ojson& r, const Style& st) {
  // One line (wrapped), whatever the record says.
  std::string out = heading_line(st, r["id"].get<std::string>(), r["kind"].get<std::string>(), printable(r["name"].get<std::string>()));
  out += st.dim(fmt::format("  from {}:{}:{}\n", r["file"].get<std::string>(), r["line"].get<int>(), r["column"].get<int>()));
  if (r.contains("resolved")) out += "  " + r["resolved"]["note"].get<std::string>() + "\n";
  if (r.contains("read_at")) {
    const auto& a = r["read_at"];
    std::string undated = a["undated_code_citations"].get<int>() > 0
                              ? fmt::format("; {} code citation(s) without a date", a["undated_code_citations"].get<int>()) : "";
    out += a["dated_sources"].get<int>() == 0
               ? fmt::format("  engine facts: no source carries a date{}\n", undated)
               : fmt::format("  engine facts read at {} … {} ({} dated source(s){}); qsel lint --stale-after 12 lists the old ones\n",
                             a["oldest"].get<std::string>(), a["newest"].get<std::string>(), a["dated_sources"].get<int>(), undated);
  }
  if (r.contains("review")) {
    const auto& v = r["review"];
    std::string last = v["last_review"].is_string() ? "last review " + v["last_review"].get<std::string>() : "no review recorded";
    std::string confidence = v["confidence"].is_number() ? fmt::format(", confidence {}", v["confidence"].dump()) : "";
    out += fmt::format("  status {}{}, {}\n", v["status"].get<std::string>() == "reviewed" ? st.green("reviewed") : st.yellow("draft"),
                       confidence, last);
    if (v.value("grade", std::string()) == "unverified")
      out += "  " + st.yellow("unverified") +
             ": no source a reader can open holds this figure; it is shown, and kept out of the speed calibration\n";
  }
  // The record as written, but the two design notes are not references a reader can follow:
  // they are listed apart, as census notes, with what they claim.
  ojson record = r["record"];
  if (record.contains("sources") && record["sources"].is_array()) {
    ojson kept = ojson::array();
    for (const auto& s : record["sources"])
      if (!is_census_note(nlohmann::json::parse(s.dump()))) kept.push_back(s);
    record["sources"] = kept;
    if (kept.empty()) record.erase("sources");
  }
  out += "\n" + render_fields(record, st);
  if (r.contains("census_notes") && !r["census_notes"].empty()) {
    out += "\n" + st.bold("Census notes (not public)") + "\n";
    for (const auto& n : r["census_notes"]) {
      std::string claims = n["claims"].get<std::string>();
      out += wrap(claims.empty() ? n["note"].get<std::string>() + " (no quote recorded)" : n["note"].get<std::string>() + " claims: " + claims,
                  st.width, "  - ", "    ");
    }
  }
  auto edges = [&](const char* key, const char* title) {
    if (!r.contains(key) || r[key].empty()) return;
    out += "\n" + st.bold(title) + "\n";
    Table t({"", "", ""});
    for (const auto& [kind, labels] : r[key].items()) {
      bool first = true;
      bool problem = kind == "missing" || kind == "wrong_kind";
      std::string shown = kind == "missing" ? "(no such record)" : kind == "wrong_kind" ? "(wrong kind)" : kind;
      for (const auto& [label, ids] : labels.items()) {
        std::string list = fmt::format("{}", fmt::join(ids.get<std::vector<std::string>>(), ", "));
        t.add({first ? (problem ? st.red(shown) : st.cyan(shown)) : "", label, problem ? st.red(list) : list});
        first = false;
      }
    }
    t.wrap_to(st.width, 2);
    out += t.render(2, false);
  };
  edges("refers_to", "Refers to");
  edges("referred_to_by", "Referred to by");
  return fit_lines(out, st.width);  // the heading lines; fields and tables are fitted already
}

}  // namespace qsel
