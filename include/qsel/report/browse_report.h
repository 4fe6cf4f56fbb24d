// Renderers for `qsel matrix` and `qsel graph`. Each takes the JSON result its
// command built and formats it; none of them looks at records or computes.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "qsel/report/render.h"
#include "qsel/report/style.h"

namespace qsel {

// ---- shared text helpers ------------------------------------------------------

// One CSV line (RFC 4180 quoting: fields holding a comma, quote or newline are quoted).
std::string csv_line(const std::vector<std::string>& fields);

// Record text made inert in Markdown: \ ` * _ [ ] < > | escaped, control
// characters and line breaks as spaces (a cell stays one cell, a name never a link).
std::string markdown_escape(std::string_view text);

// A URL for a Markdown link's <…> destination: only http(s) URLs pass, with
// spaces, <, > and control characters percent-encoded; anything else is "#".
std::string markdown_url(std::string_view url);

// A GitHub-flavoured Markdown table, every cell escaped with markdown_escape.
std::string markdown_table(const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows);
// The same with cells the caller has already escaped (to keep its own links).
std::string markdown_table_raw(const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows);

// `label` broken into lines of at most `width` characters, after spaces, '/' and
// '-' and before '('; a word longer than `width` stays whole.
std::vector<std::string> wrap_label(const std::string& label, std::size_t width);

// ---- qsel matrix ----------------------------------------------------------------
// `result` is one of: {"matrices": […]} (the list), a grid ({"matrix": id, "columns",
// "rows", …}) or a derived grid ({"derived": true, "parts", "formats", …}).
std::string render_matrix(const ojson& result, const Style& style);
std::string render_matrix_csv(const ojson& result);
std::string render_matrix_markdown(const ojson& result);
// The verdict grid (--verdicts) as one self-contained HTML file (render_matrix_html.cc).
std::string render_matrix_html(const ojson& result);
// The background colour of a verdict's cell in that file ("#16a34a" for native).
std::string matrix_html_color(const std::string& verdict);
// Text made printable, then safe inside HTML or XML text and quoted attributes (& < > " ').
std::string html_escape(std::string_view s);

// ---- qsel graph -----------------------------------------------------------------
// `result` is {"root", "depth", "nodes": [{id, kind, name, missing?}], "edges": [{from, to, label, dangling?}]}.
std::string render_graph_text(const ojson& result, const Style& style);
std::string render_graph_dot(const ojson& result);
std::string render_graph_mermaid(const ojson& result);

// Escapes for the two graph languages (exposed for tests).
std::string dot_quote(const std::string& text);         // "text" with \ and " escaped, newlines as \n
std::string mermaid_text(const std::string& text);      // text safe inside ["…"] and |"…"|
std::string mermaid_node_id(const std::string& id);     // [A-Za-z0-9_] only, never a keyword

}  // namespace qsel
