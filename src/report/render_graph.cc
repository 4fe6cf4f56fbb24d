// qsel graph: the graph result as an adjacency listing, Graphviz dot and Mermaid.
#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "qsel/report/browse_report.h"
#include "qsel/report/table.h"
#include "qsel/report/render.h"

namespace qsel {

namespace {

struct KindLook {
  const char* shape;  // Graphviz node shape
  const char* fill;   // fill colour (dot and Mermaid)
  const char* stroke;
};

// How each kind of record is drawn; unknown kinds get the last entry.
const KindLook& kind_look(const std::string& kind) {
  static const std::map<std::string, KindLook> table = {
      {"format", {"box", "#dbeafe", "#1d4ed8"}},      {"accelerator", {"box3d", "#dcfce7", "#15803d"}},
      {"target", {"hexagon", "#fef9c3", "#a16207"}},  {"kernel", {"component", "#fae8ff", "#a21caf"}},
      {"engine", {"cds", "#ffedd5", "#c2410c"}},      {"matrix", {"tab", "#e0e7ff", "#4338ca"}},
      {"benchmark", {"note", "#f1f5f9", "#475569"}},  {"gotcha", {"octagon", "#fee2e2", "#b91c1c"}},
      {"model", {"folder", "#ccfbf1", "#0f766e"}},    {"technique", {"ellipse", "#f5f5f4", "#57534e"}},
      {"fact", {"ellipse", "#f5f5f4", "#57534e"}},    {"question", {"ellipse", "#f5f5f4", "#57534e"}},
  };
  static const KindLook other{"ellipse", "#ffffff", "#57534e"};
  auto it = table.find(kind);
  return it == table.end() ? other : it->second;
}

constexpr const char* kMissingColor = "#dc2626";

bool is_missing(const ojson& node_or_edge) { return node_or_edge.value("missing", false); }

// Edges with the same ends drawn as one, their labels joined ("serves, selection-format").
struct Drawn {
  std::string from, to, label;
  bool missing = false;
};

// An edge's label, and qsel's verdict where the record's claim differs from it.
std::string edge_label(const ojson& e) {
  std::string label = string_or_empty(e["label"]);
  if (e.contains("agrees") && !e["agrees"].get<bool>()) label += " (qsel: " + string_or_empty(e["verdict"]) + ")";
  return label;
}

bool any_disagreement(const ojson& edges) {
  return std::any_of(edges.begin(), edges.end(), [](const ojson& e) { return e.contains("agrees") && !e["agrees"].get<bool>(); });
}

constexpr const char* kVerdictLegend = "LABEL (qsel: V): the record claims LABEL; qsel's verdict for the pair (explain, list, recommend) is V";

std::vector<Drawn> merged_edges(const ojson& edges) {
  std::vector<Drawn> out;
  std::map<std::tuple<std::string, std::string, bool>, std::size_t> at;
  for (const auto& e : edges) {
    Drawn d{string_or_empty(e["from"]), string_or_empty(e["to"]), edge_label(e), is_missing(e)};
    auto [it, fresh] = at.emplace(std::tuple(d.from, d.to, d.missing), out.size());
    if (fresh) out.push_back(d);
    else out[it->second].label += ", " + d.label;
  }
  return out;
}

}  // namespace

// ---- escaping ----------------------------------------------------------------------------

std::string dot_quote(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') out += "\\n";
    else if (c != '\r') out += c;
  }
  return out + "\"";
}

std::string mermaid_text(const std::string& text) {
  static const std::map<char, const char*> entities = {
      {'"', "#quot;"}, {'<', "#lt;"}, {'>', "#gt;"}, {'|', "#124;"}, {'[', "#91;"}, {']', "#93;"},
      {'{', "#123;"}, {'}', "#125;"}, {'(', "#40;"}, {')', "#41;"}, {';', "#59;"}, {'#', "#35;"}};
  std::string out;
  for (char c : text) {
    if (auto it = entities.find(c); it != entities.end()) out += it->second;
    else out += c == '\n' ? ' ' : c;
  }
  return out;
}

std::string mermaid_node_id(const std::string& id) {
  std::string out = "n_";
  for (char c : id) out += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return out;
}

// ---- text ----------------------------------------------------------------------------------

std::string render_graph_text(const ojson& r, const Style& st) {
  std::map<std::string, std::vector<const ojson*>> out_of;
  for (const auto& e : r["edges"]) out_of[string_or_empty(e["from"])].push_back(&e);
  std::string out;
  for (const auto& n : r["nodes"]) {
    if (is_missing(n)) continue;
    std::string id = string_or_empty(n["id"]);
    out += fmt::format("{}  {}\n", st.bold(id), st.cyan(string_or_empty(n["kind"])));
    std::vector<std::string> labels;
    std::map<std::string, std::vector<std::string>> targets;
    for (const ojson* e : out_of[id]) {
      std::string label = edge_label(*e);
      if (!targets.count(label)) labels.push_back(label);
      targets[label].push_back(is_missing(*e) ? st.red(string_or_empty((*e)["to"]) + " (missing)") : string_or_empty((*e)["to"]));
    }
    Table t({"", ""});
    for (const auto& l : labels) t.add({"→ " + l, fmt::format("{}", fmt::join(targets[l], ", "))});
    t.wrap_to(st.width, 2);
    out += t.render(2, false);
  }
  out += st.dim(fmt::format("{} nodes, {} edges", r["node_count"].get<std::size_t>(), r["edge_count"].get<std::size_t>()));
  int depth = r["depth"].is_number() ? r["depth"].get<int>() : 0;
  if (r["root"].is_string()) out += st.dim(fmt::format(" within {} hop{} of {}", depth, depth == 1 ? "" : "s", string_or_empty(r["root"])));
  out += "\n";
  if (any_disagreement(r["edges"])) out += st.dim(std::string(kVerdictLegend)) + "\n";
  return fit_lines(out, st.width);
}

// ---- Graphviz dot ----------------------------------------------------------------------------

namespace {

std::string dot_id(const ojson& id, bool missing) { return dot_quote((missing ? "missing:" : "") + string_or_empty(id)); }

std::string dot_node(const ojson& n, const ojson& root) {
  if (is_missing(n))
    return fmt::format("  {} [label={}, shape=box, style=dashed, color=\"{}\", fontcolor=\"{}\"];\n", dot_id(n["id"], true),
                       dot_quote(string_or_empty(n["id"]) + "\nmissing: " + string_or_empty(n["reason"])), kMissingColor, kMissingColor);
  const KindLook& k = kind_look(string_or_empty(n["kind"]));
  std::string extra = n["id"] == root ? ", penwidth=2.5" : "";
  return fmt::format("  {} [label={}, shape={}, fillcolor=\"{}\", color=\"{}\"{}];\n", dot_id(n["id"], false),
                     dot_quote(string_or_empty(n["id"]) + "\n" + string_or_empty(n["kind"])), k.shape, k.fill, k.stroke, extra);
}

// Above this many edges the drawing is "large": labels become xlabels (placed after
// layout) and network-simplex passes are capped, so dot lays out the whole corpus in
// seconds instead of many minutes.
constexpr std::size_t kLargeGraphEdges = 200;
constexpr int kLargeGraphNsLimit = 5;

// A legend cluster: one node per kind drawn, in its colours, and what the edge marks mean.
std::string dot_legend(const ojson& r) {
  std::vector<std::string> kinds;
  bool missing = false;
  for (const auto& n : r["nodes"]) {
    if (is_missing(n)) missing = true;
    else if (std::string k = string_or_empty(n["kind"]); std::find(kinds.begin(), kinds.end(), k) == kinds.end()) kinds.push_back(k);
  }
  std::string out = "  subgraph cluster_legend {\n    label=\"legend\"; fontname=\"Helvetica\"; fontsize=10; color=\"#cbd5e1\";\n";
  for (const auto& k : kinds) {
    const KindLook& l = kind_look(k);
    out += fmt::format("    {} [label={}, shape={}, fillcolor=\"{}\", color=\"{}\"];\n", dot_quote("legend:" + k), dot_quote(k), l.shape, l.fill,
                       l.stroke);
  }
  if (missing)
    out += fmt::format("    \"legend:missing\" [label=\"missing: named, not in the corpus\", shape=box, style=dashed, color=\"{}\", "
                       "fontcolor=\"{}\"];\n", kMissingColor, kMissingColor);
  if (any_disagreement(r["edges"])) out += fmt::format("    \"legend:verdict\" [label={}, shape=plaintext, style=\"\"];\n", dot_quote(kVerdictLegend));
  return out + "  }\n";
}

std::string dot_edge(const Drawn& e, const char* label_attr) {
  std::string style = e.missing ? fmt::format(", style=dashed, color=\"{}\", fontcolor=\"{}\"", kMissingColor, kMissingColor) : "";
  return fmt::format("  {} -> {} [{}={}{}];\n", dot_quote(e.from), dot_quote((e.missing ? "missing:" : "") + e.to), label_attr,
                     dot_quote(e.label), style);
}

}  // namespace

std::string render_graph_dot(const ojson& r) {
  auto edges = merged_edges(r["edges"]);
  bool large = edges.size() > kLargeGraphEdges;
  std::string out = "digraph qsel {\n  rankdir=LR;\n";
  if (large) out += fmt::format("  nslimit={};\n", kLargeGraphNsLimit);
  out += "  node [style=filled, fontname=\"Helvetica\", fontsize=10];\n";
  out += "  edge [fontname=\"Helvetica\", fontsize=8, color=\"#64748b\", fontcolor=\"#475569\"];\n";
  for (const auto& n : r["nodes"]) out += dot_node(n, r["root"]);
  for (const auto& e : edges) out += dot_edge(e, large ? "xlabel" : "label");
  return out + dot_legend(r) + "}\n";
}

// ---- Mermaid -------------------------------------------------------------------------------------

namespace {

// Sanitised, unique Mermaid node ids for record ids and missing ids.
class MermaidIds {
 public:
  const std::string& of(const std::string& id, bool missing) {
    std::string key = (missing ? "!" : "") + id;
    if (auto it = ids_.find(key); it != ids_.end()) return it->second;
    std::string base = missing ? "missing_" + mermaid_node_id(id).substr(2) : mermaid_node_id(id);
    std::string chosen = base;
    for (int n = 2; used_.count(chosen); ++n) chosen = base + "_" + std::to_string(n);
    used_.insert(chosen);
    return ids_[key] = chosen;
  }

 private:
  std::map<std::string, std::string> ids_;
  std::set<std::string> used_;
};

}  // namespace

std::string render_graph_mermaid(const ojson& r) {
  MermaidIds ids;
  std::string out = "flowchart LR\n";
  std::vector<std::string> kinds;
  for (const auto& n : r["nodes"]) {
    bool missing = is_missing(n);
    std::string cls = missing ? "missing" : string_or_empty(n["kind"]);
    if (std::find(kinds.begin(), kinds.end(), cls) == kinds.end()) kinds.push_back(cls);
    std::string label = mermaid_text(string_or_empty(n["id"])) + "<br/>" + (missing ? "missing" : mermaid_text(string_or_empty(n["kind"])));
    out += fmt::format("  {}[\"{}\"]:::{}\n", ids.of(string_or_empty(n["id"]), missing), label, cls);
  }
  for (const auto& e : merged_edges(r["edges"]))
    out += fmt::format("  {} {}|{}| {}\n", ids.of(e.from, false), e.missing ? "-.->" : "-->", mermaid_text(e.label), ids.of(e.to, e.missing));
  for (const auto& k : kinds) {
    if (k == "missing") {
      out += fmt::format("  classDef missing fill:#ffffff,stroke:{},color:{},stroke-dasharray:4 3\n", kMissingColor, kMissingColor);
      continue;
    }
    const KindLook& l = kind_look(k);
    out += fmt::format("  classDef {} fill:{},stroke:{}\n", k, l.fill, l.stroke);
  }
  if (r["root"].is_string()) out += fmt::format("  style {} stroke-width:3px\n", ids.of(string_or_empty(r["root"]), false));
  // A legend: one node per kind, in its class.
  out += "  subgraph legend\n";
  for (const auto& k : kinds) out += fmt::format("    legend_{}[\"{}\"]:::{}\n", k, k == "missing" ? "missing: named, not in the corpus" : k, k);
  if (any_disagreement(r["edges"])) out += fmt::format("    legend_verdict[\"{}\"]\n", mermaid_text(kVerdictLegend));
  out += "  end\n";
  return out;
}

}  // namespace qsel
