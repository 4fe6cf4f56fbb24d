#include <catch2/catch.hpp>

#include "qsel/report/browse_report.h"

using namespace qsel;

namespace {

ojson small() {
  return ojson::parse(R"({
    "root": "a.b", "depth": 1, "node_count": 3, "edge_count": 3,
    "nodes": [{"id": "a.b", "kind": "format", "name": "A \"B\"", "distance": 0},
              {"id": "a-b", "kind": "engine", "name": "AB", "distance": 1},
              {"id": "gone", "kind": null, "missing": true, "reason": "no such record"}],
    "edges": [{"from": "a-b", "to": "a.b", "label": "serves"},
              {"from": "a-b", "to": "a.b", "label": "selection-format"},
              {"from": "a.b", "to": "gone", "label": "related", "missing": true}]})");
}

}  // namespace

TEST_CASE("render_graph: dot quoting escapes quotes, backslashes and newlines", "[report][graph]") {
  CHECK(dot_quote("plain") == "\"plain\"");
  CHECK(dot_quote("say \"x\"\\y\nz") == "\"say \\\"x\\\"\\\\y\\nz\"");
}

TEST_CASE("render_graph: Mermaid text and ids are sanitised", "[report][graph]") {
  CHECK(mermaid_text("a \"b\" <c> | [d] (e); #f") == "a #quot;b#quot; #lt;c#gt; #124; #91;d#93; #40;e#41;#59; #35;f");
  CHECK(mermaid_node_id("bitnet-b1.58") == "n_bitnet_b1_58");
  CHECK(mermaid_node_id("end") == "n_end");
}

TEST_CASE("render_graph: dot output merges parallel edges and draws missing nodes dashed red", "[report][graph]") {
  CHECK(render_graph_dot(small()) ==
        "digraph qsel {\n"
        "  rankdir=LR;\n"
        "  node [style=filled, fontname=\"Helvetica\", fontsize=10];\n"
        "  edge [fontname=\"Helvetica\", fontsize=8, color=\"#64748b\", fontcolor=\"#475569\"];\n"
        "  \"a.b\" [label=\"a.b\\nformat\", shape=box, fillcolor=\"#dbeafe\", color=\"#1d4ed8\", penwidth=2.5];\n"
        "  \"a-b\" [label=\"a-b\\nengine\", shape=cds, fillcolor=\"#ffedd5\", color=\"#c2410c\"];\n"
        "  \"missing:gone\" [label=\"gone\\nmissing: no such record\", shape=box, style=dashed, color=\"#dc2626\", fontcolor=\"#dc2626\"];\n"
        "  \"a-b\" -> \"a.b\" [label=\"serves, selection-format\"];\n"
        "  \"a.b\" -> \"missing:gone\" [label=\"related\", style=dashed, color=\"#dc2626\", fontcolor=\"#dc2626\"];\n"
        "  subgraph cluster_legend {\n"
        "    label=\"legend\"; fontname=\"Helvetica\"; fontsize=10; color=\"#cbd5e1\";\n"
        "    \"legend:format\" [label=\"format\", shape=box, fillcolor=\"#dbeafe\", color=\"#1d4ed8\"];\n"
        "    \"legend:engine\" [label=\"engine\", shape=cds, fillcolor=\"#ffedd5\", color=\"#c2410c\"];\n"
        "    \"legend:missing\" [label=\"missing: named, not in the corpus\", shape=box, style=dashed, color=\"#dc2626\", "
        "fontcolor=\"#dc2626\"];\n"
        "  }\n"
        "}\n");
}

TEST_CASE("render_graph: an edge whose claim differs from qsel's verdict says both, and the legend explains it", "[report][graph]") {
  ojson g = small();
  g["edges"].push_back({{"from", "a.b"}, {"to", "a-b"}, {"label", "native-on"}, {"verdict", "dequant"}, {"agrees", false}});
  g["edges"].push_back({{"from", "a-b"}, {"to", "a.b"}, {"label", "census-native"}, {"verdict", "native"}, {"agrees", true}});
  std::string dot = render_graph_dot(g);
  CHECK(dot.find("\"a.b\" -> \"a-b\" [label=\"native-on (qsel: dequant)\"];") != std::string::npos);
  CHECK(dot.find("label=\"serves, selection-format, census-native\"") != std::string::npos);
  CHECK(dot.find("\"legend:verdict\" [label=\"LABEL (qsel: V): the record claims LABEL; qsel's verdict") != std::string::npos);
  Style wide;
  wide.width = 200;
  std::string text = render_graph_text(g, wide);
  CHECK(text.find("  → native-on (qsel: dequant)  a-b\n") != std::string::npos);
  CHECK(text.ends_with("LABEL (qsel: V): the record claims LABEL; qsel's verdict for the pair (explain, list, recommend) is V\n"));
  CHECK(render_graph_text(g, Style{}).ends_with("LABEL (qsel: V): the record claims LABEL; qsel's verdict for the pair (explain, list, recommend) is\nV\n"));
  CHECK(render_graph_mermaid(g).find("n_a_b -->|native-on #40;qsel: dequant#41;| n_a_b_2") != std::string::npos);
}

TEST_CASE("render_graph: a large graph uses xlabels and a capped layout", "[report][graph]") {
  ojson g = small();
  for (int i = 0; i < 250; ++i) g["edges"].push_back({{"from", "a.b"}, {"to", "a-b"}, {"label", "l" + std::to_string(i)}});
  for (int i = 0; i < 250; ++i) g["edges"].push_back({{"from", "a-b"}, {"to", "t" + std::to_string(i)}, {"label", "x"}});
  std::string dot = render_graph_dot(g);
  CHECK(dot.find("  nslimit=5;\n") != std::string::npos);
  CHECK(dot.find("[xlabel=\"serves, selection-format\"]") != std::string::npos);
}

TEST_CASE("render_graph: Mermaid ids stay unique when two ids sanitise alike", "[report][graph]") {
  CHECK(render_graph_mermaid(small()) ==
        "flowchart LR\n"
        "  n_a_b[\"a.b<br/>format\"]:::format\n"
        "  n_a_b_2[\"a-b<br/>engine\"]:::engine\n"
        "  missing_gone[\"gone<br/>missing\"]:::missing\n"
        "  n_a_b_2 -->|serves, selection-format| n_a_b\n"
        "  n_a_b -.->|related| missing_gone\n"
        "  classDef format fill:#dbeafe,stroke:#1d4ed8\n"
        "  classDef engine fill:#ffedd5,stroke:#c2410c\n"
        "  classDef missing fill:#ffffff,stroke:#dc2626,color:#dc2626,stroke-dasharray:4 3\n"
        "  style n_a_b stroke-width:3px\n"
        "  subgraph legend\n"
        "    legend_format[\"format\"]:::format\n"
        "    legend_engine[\"engine\"]:::engine\n"
        "    legend_missing[\"missing: named, not in the corpus\"]:::missing\n"
        "  end\n");
}

TEST_CASE("render_graph: the text listing groups each node's out-edges by label", "[report][graph]") {
  CHECK(render_graph_text(small(), Style{}) ==
        "a.b  format\n"
        "  → related  gone (missing)\n"
        "a-b  engine\n"
        "  → serves            a.b\n"
        "  → selection-format  a.b\n"
        "3 nodes, 3 edges within 1 hop of a.b\n");
}
