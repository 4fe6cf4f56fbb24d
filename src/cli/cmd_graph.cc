// qsel graph: parses the flags; explain/browse.h selects, report/ renders for people
// (text), scripts (JSON), Graphviz (dot) and Mermaid.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "commands.h"
#include "number_flags.h"
#include "qsel/explain/browse.h"
#include "qsel/report/json_contract.h"
#include "qsel/report/render.h"
#include "qsel/cli/context.h"
#include "qsel/report/browse_report.h"

namespace qsel {
using ojson = nlohmann::ordered_json;
namespace {

// More records than Graphviz or Mermaid lay out in reasonable time (the 1,100-record
// corpus took dot over four minutes): the drawing formats ask for a narrower selection.
constexpr std::size_t kMaxDrawn = 600;
// Graphviz's layout grows much faster than the edges: 862 edges (format, engine, kernel, matrix,
// target) lay out in 1.1 s, the 1,684 within two hops of nvfp4 took 19 s. Past 1,000 the drawing
// formats ask for a narrower selection.
constexpr std::size_t kMaxDrawnEdges = 1000;
// GitHub renders Mermaid blocks up to 50,000 characters (its maxTextSize) and shows an error past it.
constexpr std::size_t kMaxMermaidChars = 50000;

void print_graph(Context& ctx, const ojson& result) {
  if (ctx.json()) return ctx.print_json(versioned(result));
  std::size_t nodes = result["nodes"].size();
  if ((ctx.format == "dot" || ctx.format == "mermaid") && nodes > kMaxDrawn)
    throw UsageError(fmt::format("the selection has {} records, more than {} can lay out in reasonable time (at most {}); narrow it "
                                 "with --around ID, --kinds KIND,… (format,engine,kernel,matrix,target …), --edges LABEL,…, or use --format json",
                                 nodes, ctx.format == "dot" ? "Graphviz" : "Mermaid", kMaxDrawn));
  std::size_t edges = result["edges"].size();
  if ((ctx.format == "dot" || ctx.format == "mermaid") && edges > kMaxDrawnEdges)
    throw UsageError(fmt::format("the selection has {} edges, more than {} lays out in reasonable time (at most {}; the 1,684 within "
                                 "two hops of nvfp4 took Graphviz 19 s); narrow it with --depth 1, --kinds KIND,… or --edges LABEL,…, "
                                 "or use --format json",
                                 edges, ctx.format == "dot" ? "Graphviz" : "Mermaid", kMaxDrawnEdges));
  if (ctx.format == "dot") *ctx.out << render_graph_dot(result);
  else if (ctx.format == "mermaid") {
    std::string text = render_graph_mermaid(result);
    if (text.size() > kMaxMermaidChars)
      throw UsageError(fmt::format("the Mermaid text is {} characters; GitHub renders at most {} (maxTextSize); narrow it with --around "
                                   "ID, --kinds KIND,… or --edges LABEL,…, or use --format dot or json",
                                   text.size(), kMaxMermaidChars));
    *ctx.out << text;
  }
  else *ctx.out << render_graph_text(terminal_safe(result), ctx.style());
}

}  // namespace

Runner setup_graph(CLI::App& sub, Context& ctx) {
  auto o = std::make_shared<GraphQuery>();
  auto depth = std::make_shared<TypedNumber>();
  sub.add_option("--around", o->around, "Only the records within --depth hops of this id or alias (edges followed both ways)");
  add_number(sub, "--depth", *depth, "Hops from --around (default 1)", "INT");
  sub.add_option("--kinds", o->kinds, "Only records of these kinds (format,engine,kernel,matrix,target,accelerator,benchmark …)")
      ->delimiter(',');
  sub.add_option("--edges", o->edges, "Only edges with these labels and the records they join (native-on,emulated-on,serves …; "
                                      "qsel graph --format json lists them)")
      ->delimiter(',');
  return [o, depth, &ctx]() {
    require_format(ctx, "graph");
    if (depth->given && o->around.empty()) throw UsageError("--depth needs --around ID");
    if (depth->given) o->depth = static_cast<int>(whole_number_flag(*depth, "--depth", 0, 1000, "a number of hops from 0 to 1000"));
    print_graph(ctx, graph_answer(ctx.graph(), *o));
    return 0;
  };
}

}  // namespace qsel
