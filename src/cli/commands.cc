#include "commands.h"

#include <algorithm>

#include <fmt/format.h>

#include "qsel/cli/context.h"

namespace qsel {

// The one table of commands: `qsel --help`, each command's help, the shell
// completions and the man page are all generated from it.
const std::vector<Command>& commands() {
  static const std::vector<Command> table = {
      {"recommend", "Rank format x engine x kernel for a GPU and a model: memory fit, traps, checks (the seven rules)",
       setup_recommend, {"text", "json", "markdown", "html", "svg"}, "nothing viable: no candidate fits or every one is blocked",
       {"qsel recommend --gpu h100 --model-size 70b", "qsel recommend --gpu \"RTX 3090\" --model-config config.json --engine llama-cpp"}},
      {"inspect", "Read a checkpoint folder, config.json or .gguf: shape, shipped format, measured bits per weight",
       setup_inspect, {"text", "json"}, nullptr,
       {"qsel inspect ./Qwen2.5-7B-Instruct-AWQ", "qsel inspect model.gguf --format json --tensors"}},
      {"verify", "Read an engine's start-up log: did it run the kernel the rules predict? (Rule 2's checks)",
       setup_verify, {"text", "json"}, "mismatch: the log shows another kernel or path than the rules predict, or a check failed",
       {"qsel verify --log vllm.log --gpu h100 --model ./ckpt", "journalctl -u vllm | qsel verify --log - --quant awq"}, false,
       "unverified: the log cannot settle it (no kernel line, or no GPU and format to predict from)"},
      {"explain", "Explain a format on a target (verdict, conflicts), a record, a rule (rule-1 … rule-7) or a lint code",
       setup_explain, {"text", "json"}, nullptr,
       {"qsel explain nvfp4 --on sm120", "qsel explain QS004"}},
      {"list", "List records of a kind (formats, accelerators, kernels, …)",
       setup_list, {"text", "json", "markdown"}, nullptr,
       {"qsel list formats --regime w4a16", "qsel list accelerators --vendor amd --format markdown"}},
      {"show", "Show one record: its fields, where it was read from, every edge in and out",
       setup_show, {"text", "json"}, nullptr,
       {"qsel show h100", "qsel show machete --format json"}},
      {"lint", "Check record files: schema, references, GGUF structs, consistency (text, JSON, SARIF, CI annotations)",
       setup_lint, {"text", "concise", "json", "sarif", "github", "gitlab", "junit", "pylint", "azure"}, "findings at error severity (with --strict also warnings)",
       {"qsel lint data/", "qsel lint --format sarif --output-file qsel.sarif --exit-zero data/"}},
      {"matrix", "An engine's support matrix as a grid, formats x parts from the format records, or qsel's verdict grid",
       setup_matrix, {"text", "json", "csv", "markdown", "html"}, nullptr,
       {"qsel matrix --engine trtllm", "qsel matrix --verdicts --vendor nvidia --format html > verdicts.html"}},
      {"graph", "The record graph (or a neighbourhood) as text, JSON, Graphviz dot or Mermaid",
       setup_graph, {"text", "json", "dot", "mermaid"}, nullptr,
       {"qsel graph --around nvfp4 --format mermaid", "qsel graph --kinds format,engine,kernel,matrix --format dot | dot -Tsvg > corpus.svg"}},
      {"completion", "Print a shell completion script: bash, zsh or fish",
       setup_completion, {"text"}, nullptr,
       {"source <(qsel completion bash)", "qsel completion fish > ~/.config/fish/completions/qsel.fish"}},
      {"man", "Print the manual page (roff) for man(1)",
       setup_man, {"text"}, nullptr,
       {"qsel man > qsel.1 && man ./qsel.1", "qsel man | groff -man -Tutf8 | less"}, true},
  };
  return table;
}

const Command* find_command(const std::string& name) {
  for (const auto& c : commands())
    if (name == c.name) return &c;
  return nullptr;
}

const std::vector<std::string>& output_format_names() {
  static const std::vector<std::string> names = {"text", "concise", "json", "sarif", "github", "gitlab", "junit", "pylint", "azure",
                                                 "markdown", "csv", "dot", "mermaid", "html", "svg"};
  return names;
}

void require_format(const Context& ctx, const char* command) {
  const Command* c = find_command(command);
  if (!c) return;
  if (std::any_of(c->formats.begin(), c->formats.end(), [&](const char* f) { return ctx.format == f; })) return;
  throw UsageError(fmt::format("`qsel {}` does not support --format {}; use {}", command, ctx.format, fmt::join(c->formats, ", ")));
}

}  // namespace qsel
