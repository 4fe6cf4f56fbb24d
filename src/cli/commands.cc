#include "commands.h"

#include <fmt/format.h>

#include "qsel/cli/context.h"

namespace qsel {

const std::vector<Command>& commands() {
  static const std::vector<Command> table = {
      {"recommend", "Rank format x engine x kernel for a GPU and a model: memory fit, traps, checks (the seven rules)", setup_recommend},
      {"inspect", "Read a checkpoint folder, config.json or .gguf: shape, shipped format, measured bits per weight", setup_inspect},
      {"verify", "Read an engine's start-up log: did it run the kernel the rules predict? (Rule 2's checks)", setup_verify},
      {"explain", "Explain a format on a target (verdict, conflicts), a record, a rule (rule-1 … rule-7) or a lint code", setup_explain},
      {"list", "List records of a kind (formats, accelerators, kernels, …)", setup_list},
      {"show", "Show one record: its fields, where it was read from, every edge in and out", setup_show},
      {"lint", "Check record files: schema, references, GGUF structs, consistency (text, JSON, SARIF, GitHub)", setup_lint},
      {"matrix", "An engine's support matrix as a grid, or formats x parts from the format records", setup_matrix},
      {"graph", "The record graph (or a neighbourhood) as text, JSON, Graphviz dot or Mermaid", setup_graph},
  };
  return table;
}

void require_format(const Context& ctx, const char* command, std::initializer_list<const char*> supported) {
  for (const char* f : supported)
    if (ctx.format == f) return;
  throw UsageError(fmt::format("`qsel {}` does not support --format {}; use {}", command, ctx.format, fmt::join(supported, ", ")));
}

}  // namespace qsel
