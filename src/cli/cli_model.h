// The command line as data, read from the CLI11 tree that also builds --help:
// what the shell completions and the man page are generated from.
#pragma once
#include <string>
#include <vector>

namespace CLI { class App; }

namespace qsel {

class Graph;

struct CliOption {
  std::vector<std::string> names;  // "-o", "--output-file"
  std::string value;               // the value's name ("FILE"); empty for a flag
  std::string help;
  std::vector<std::string> choices;  // completion words for the value
  std::string complete;              // "file", "dir" or "" (choices or nothing)
};

struct CliCommand {
  std::string name, summary, footer;
  bool hidden = false;
  std::vector<CliOption> options;
  std::vector<CliOption> positionals;  // names empty; value is the positional's name
  std::vector<std::string> examples;
  std::vector<std::string> formats;  // what --format accepts here
};

struct CliModel {
  std::vector<CliOption> global;
  std::vector<CliCommand> commands;
};

// Every option and positional of `app`, with completion words taken from the
// corpus in `g` (GPU, engine, model, format and target ids; record kinds).
// Only words made of [A-Za-z0-9._+-] are offered: record text never reaches a shell.
CliModel cli_model(const CLI::App& app, const Graph& g);

// The global options as they apply after `c`: --format offers c's formats.
std::vector<CliOption> globals_for(const CliModel& m, const CliCommand& c);

// `qsel completion SHELL`: a script for bash, zsh or fish.
std::string completion_script(const CliModel& m, const std::string& shell);

// `qsel man`: the manual page, roff (man(7)).
std::string man_page(const CliModel& m, const std::string& version);

}  // namespace qsel
