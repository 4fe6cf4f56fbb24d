// qsel matrix --format html: qsel's verdict for every format on every target as one
// self-contained HTML file (no script, no external file): cells coloured by verdict,
// the reasons on hover (title), and numbered footnotes for contested cells, whose
// reasons are the conflict. Geometry is fixed (cell size in CSS) so a screenshot can be
// checked cell by cell (tests/report/render_matrix_html_test.cc).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "qsel/core/text.h"
#include "qsel/report/browse_report.h"
#include "qsel/report/render.h"

namespace qsel {
using ojson = nlohmann::ordered_json;

std::string html_escape(std::string_view s) {
  std::string out;
  for (char c : printable(std::string(s))) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

namespace {

std::string html(std::string_view s) { return html_escape(s); }

struct Look {
  const char* verdict;
  const char* mark;
  const char* color;  // the cell's background, also checked by the screenshot test
};

constexpr Look kLooks[] = {
    {"native", "N", "#16a34a"},      {"dequant", "D", "#2563eb"},     {"emulated", "E", "#f59e0b"},
    {"contested", "C", "#dc2626"},   {"unsupported", "x", "#9ca3af"}, {"unknown", "?", "#ffffff"},
};

const Look& verdict_look(const std::string& verdict) {
  for (const auto& l : kLooks)
    if (verdict == l.verdict) return l;
  return kLooks[5];
}

}  // namespace

std::string matrix_html_color(const std::string& verdict) { return verdict_look(verdict).color; }

std::string render_matrix_html(const ojson& r) {
  std::string css = "body{font:13px Helvetica,Arial,sans-serif;margin:16px;color:#111}"
                    "table{border-collapse:collapse;table-layout:fixed}"
                    "th,td{border:1px solid #e5e7eb;padding:0;height:22px;box-sizing:border-box}"
                    "th.f{width:220px;text-align:left;padding-left:4px;white-space:nowrap;overflow:hidden}"
                    "th.t{width:28px;height:90px;vertical-align:bottom;font-weight:normal}"
                    "th.t div{writing-mode:vertical-rl;transform:rotate(180deg);margin:auto;white-space:nowrap}"
                    "td{width:28px;text-align:center;font-size:11px;color:#fff}"
                    "td.v-unknown{color:#9ca3af}sup{font-size:8px}"
                    ".legend span{display:inline-block;padding:2px 8px;margin-right:6px;color:#fff}"
                    "ol{font-size:12px}";
  for (const auto& l : kLooks) css += fmt::format("td.v-{}{{background:{}}}", l.verdict, l.color);
  std::string title = "qsel: formats × targets, qsel's verdict" + (r["vendor"].is_string() ? " (" + string_or_empty(r["vendor"]) + ")" : std::string());
  std::string out = fmt::format("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n<style>{}</style>\n"
                                "</head>\n<body>\n<h1>{}</h1>\n",
                                html(title), css, html(title));
  out += "<p>Each cell is what <code>qsel explain FORMAT --on TARGET</code> says; hover for its reasons.</p>\n";
  out += "<table id=\"grid\">\n<thead><tr><th class=\"f\">format</th>";
  for (const auto& t : r["targets"]) out += fmt::format("<th class=\"t\" title=\"{}\"><div>{}</div></th>", html(string_or_empty(t["name"])), html(string_or_empty(t["id"])));
  out += "</tr></thead>\n<tbody>\n";
  std::vector<std::string> notes;
  for (const auto& f : r["formats"]) {
    out += fmt::format("<tr><th class=\"f\" title=\"{}\">{}</th>", html(string_or_empty(f["name"])), html(string_or_empty(f["id"])));
    for (const auto& t : r["targets"]) {
      const ojson& c = f["cells"][string_or_empty(t["id"])];
      std::string v = string_or_empty(c["verdict"]);
      std::vector<std::string> reasons;
      for (const auto& x : c["reasons"]) reasons.push_back(string_or_empty(x));
      std::string hover = html(fmt::format("{} on {}: {}", string_or_empty(f["id"]), string_or_empty(t["id"]), v));  // a line per reason (&#10;)
      for (const auto& x : reasons) hover += "&#10;" + html(x);
      std::string sup;
      if (v == "contested") {
        notes.push_back(fmt::format("<b>{} on {}</b>: {}", html(string_or_empty(f["id"])), html(string_or_empty(t["id"])), html(fmt::format("{}", fmt::join(reasons, "; ")))));
        sup = fmt::format("<sup>{}</sup>", notes.size());
      }
      out += fmt::format("<td class=\"v-{}\" title=\"{}\">{}{}</td>", verdict_look(v).verdict, hover, verdict_look(v).mark, sup);
    }
    out += "</tr>\n";
  }
  out += "</tbody>\n</table>\n";
  // The legend below the grid: the first verdict colour from the top is the grid's first cell.
  out += "<p class=\"legend\">";
  for (const auto& l : kLooks)
    out += fmt::format("<span style=\"background:{};{}\">{} {}</span>", l.color, std::string(l.verdict) == "unknown" ? "color:#111;border:1px solid #ccc" : "",
                       l.mark, html(string_or_empty(r["legend"][l.verdict])));
  out += "</p>\n";
  if (!notes.empty()) {
    out += "<h2>Contested cells</h2>\n<ol>\n";
    for (const auto& n : notes) out += "<li>" + n + "</li>\n";
    out += "</ol>\n";
  }
  std::vector<std::string> left;
  for (const auto& id : r["formats_left_out"]) left.push_back(string_or_empty(id));
  if (!left.empty()) out += fmt::format("<p>No target serves or refuses: {}.</p>\n", html(fmt::format("{}", fmt::join(left, ", "))));
  std::vector<std::string> idle;
  for (const auto& id : r["targets_left_out"]) idle.push_back(string_or_empty(id));
  if (!idle.empty()) out += fmt::format("<p>Targets where no format has a verdict: {}.</p>\n", html(fmt::format("{}", fmt::join(idle, ", "))));
  return out + "</body>\n</html>\n";
}

}  // namespace qsel
