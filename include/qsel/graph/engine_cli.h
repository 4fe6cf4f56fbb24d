// An engine's recorded command line: the flags each of its programs has at a
// pinned release (engine `cli`), and the templates qsel writes launch commands
// from (engine `launch`). Every command qsel prints is checked against these
// (lint QS045 for the templates; tests/rules/launch_grid_test.cc for the output).
#pragma once
#include <string>
#include <vector>

#include "qsel/graph/graph.h"

namespace qsel {

// A command line's words, split at whitespace (no shell quoting: templates and their filled values).
std::vector<std::string> command_words(const std::string& command);

// The words of a command line that are flags: each word that starts with '-'
// and is not a number ("-ngl", "--fit-target"); "--flag=value" counts as "--flag".
std::vector<std::string> command_flags(const std::string& command);

// A word that sets an environment variable for the command after it: NAME=value,
// NAME a letter or '_' then letters, digits and '_' (OLLAMA_CONTEXT_LENGTH=8192).
bool env_assignment(const std::string& word);

// The names of the variables `command` sets (its leading NAME=value words).
std::vector<std::string> command_env(const std::string& command);

// The engine's `cli` entry for the program `command` runs (after its NAME=value words): the longest recorded
// program name the command starts with (followed by a space or the end); null when none.
const nlohmann::json* cli_program(const Record& engine, const std::string& command);

// The flags of `command` that the release its program was recorded at lacks, or
// every flag when no recorded program runs it (`program_known` says which).
std::vector<std::string> unknown_flags(const Record& engine, const std::string& command, bool* program_known = nullptr);

// The variables `command` sets that the `env` of its program's `cli` entry (the
// variables it reads at the recorded commit) lacks, or all of them when no
// recorded program runs it (`program_known` says which).
std::vector<std::string> unknown_env(const Record& engine, const std::string& command, bool* program_known = nullptr);

// Every command line the engine's `launch` spells, each prefixed with its program
// (the settings, the fit alternative, each KV-cache entry and the parallel-layout
// flags of `tensor_parallel.flags`; a template's NAME=value words as the environment
// of `launch.server`, "OLLAMA_CONTEXT_LENGTH={context} ollama serve"; `model_import`
// as the whole command it is), with the JSON pointer
// of the field it came from: what lint checks against the `cli` table.
struct LaunchTemplate {
  std::string pointer;  // "/launch/context", "/launch/kv_cache/0/flags"
  std::string command;  // "llama-server -c {context}"
};
std::vector<LaunchTemplate> launch_templates(const Record& engine);

}  // namespace qsel
