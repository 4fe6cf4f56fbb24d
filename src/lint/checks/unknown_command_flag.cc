// QS045: an engine's launch template uses a flag its recorded release lacks.
#include <fmt/format.h>

#include "checks.h"
#include "qsel/graph/engine_cli.h"
#include "util.h"

namespace qsel::lint_checks {
namespace {

constexpr RuleInfo kInfo{
    "QS045", "unknown-command-flag", Severity::Error, false,
    "A command template uses a flag the engine's recorded release lacks.",
    {R"(An engine's `launch` template (the model, a setting, the `--fit` alternative or a `kv_cache` entry) whose words include a flag that is not in the `flags` of the `cli` program the template runs, or whose program has no `cli` entry at all. qsel prints these templates, filled in, as the commands a user pastes.)",
     R"(A printed command is a contract (DESIGN §6a): every flag in it must exist in a release of the engine, read at a commit. A flag from a pull request (`llama-quantize --target-bpw`), from a fork or from another engine makes the command fail, or worse, be ignored while the plan assumed it.)",
     R"(# engines/llama-cpp.yaml
cli:
- program: llama-server
  flags: ['-m', '-c', '-ngl']
launch:
  program: llama-server
  model: -m {file}
  context: -c {context}
  gpu_layers: --gpu-layer {n})",
     R"(engines/llama-cpp.yaml:12:15: error: launch template "llama-server --gpu-layer {n}" uses --gpu-layer, which llama-server at 145b628 does not have [QS045 unknown-command-flag])",
     R"(Spell the flag as the engine's code at the recorded commit does, or, when the engine added it later, read the program's flags at a newer commit and update `cli` (with its source). A flag that only an unmerged pull request has is not a command qsel may print.)"}};

void each(CheckContext& c, const Record& r) {
  if (r.kind != Kind::Engine || !r.data.contains("launch")) return;
  for (const auto& t : launch_templates(r)) {
    bool known = false;
    auto missing = unknown_flags(r, t.command, &known);
    const json* p = cli_program(r, t.command);
    if (!known) {
      c.report(r, t.pointer, fmt::format("launch template \"{}\" runs a program with no cli entry: record its flags at a commit",
                                         t.command));
      continue;
    }
    std::string at = p ? p->value("commit", std::string()).substr(0, 7) : "";
    for (const auto& f : missing)
      c.report(r, t.pointer, fmt::format("launch template \"{}\" uses {}, which {} at {} does not have", t.command, f,
                                         p ? p->value("program", std::string()) : "the program", at));
  }
}

}  // namespace

Check unknown_command_flag() { return {.info = &kInfo, .each = each}; }

}  // namespace qsel::lint_checks
