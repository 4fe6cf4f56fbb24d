// QS048: an engine's launch template sets an environment variable its server does not read.
#include <fmt/format.h>

#include "checks.h"
#include "qsel/graph/engine_cli.h"
#include "util.h"

namespace qsel::lint_checks {
namespace {

constexpr RuleInfo kInfo{
    "QS048", "unknown-environment-variable", Severity::Error, false,
    "A command template sets an environment variable the engine's recorded release does not read.",
    {R"(An engine's `launch` template whose `NAME=value` words (the settings of a server configured by its environment, `launch.server`: `ollama serve`) name a variable that is not in the `env` of that program's `cli` entry, the variables its code reads at the recorded commit. qsel prints these words before the server, as the command a user pastes.)",
     R"(A server ignores a variable it does not read, without a word: the plan assumed a context, a KV-cache type or a GPU spread that the server never sets, and the model loads with its defaults (a 16-bit cache that no longer fits, a context four times smaller). A misspelt or renamed variable is as silent as a missing one.)",
     R"(# engines/ollama.yaml
cli:
- program: ollama serve
  flags: []
  env: [OLLAMA_CONTEXT_LENGTH, OLLAMA_KV_CACHE_TYPE, OLLAMA_FLASH_ATTENTION]
launch:
  program: ollama run
  server: ollama serve
  context: OLLAMA_NUM_CTX={context})",
     R"(engines/ollama.yaml:10:12: error: launch template "OLLAMA_NUM_CTX={context} ollama serve" sets OLLAMA_NUM_CTX, which ollama serve at fb30760 does not read [QS048 unknown-environment-variable])",
     R"(Spell the variable as the server's code at the recorded commit reads it (Ollama: envconfig/config.go), or, when a newer release added it, read the variables at a newer commit and update `env` (with its source).)"}};

void each(CheckContext& c, const Record& r) {
  if (r.kind != Kind::Engine || !r.data.contains("launch")) return;
  for (const auto& t : launch_templates(r)) {
    if (command_env(t.command).empty()) continue;
    bool known = false;
    auto missing = unknown_env(r, t.command, &known);
    if (!known) continue;  // QS045 says the program has no cli entry
    const json* p = cli_program(r, t.command);
    std::string at = p ? p->value("commit", std::string()).substr(0, 7) : "";
    for (const auto& name : missing)
      c.report(r, t.pointer, fmt::format("launch template \"{}\" sets {}, which {} at {} does not read", t.command, name,
                                         p ? p->value("program", std::string()) : "the program", at));
  }
}

}  // namespace

Check unknown_environment_variable() { return {.info = &kInfo, .each = each}; }

}  // namespace qsel::lint_checks
