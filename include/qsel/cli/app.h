// The command-line front end: one table of commands over the library.
#pragma once
#include <functional>
#include <utility>
#include <iosfwd>
#include <string>
#include <vector>

namespace CLI { class App; }

namespace qsel {

struct Context;

// A command registers its options on `sub` and returns what runs it (exit code).
using Runner = std::function<int()>;
struct Command {
  const char* name;
  const char* summary;
  Runner (*setup)(CLI::App& sub, Context& ctx);
  std::vector<const char*> formats;   // what --format accepts for this command; the first is the default
  const char* exit_one;               // what exit code 1 means for this command (nullptr: never 1)
  std::vector<const char*> examples;  // shown in `qsel CMD --help` and the man page
  bool hidden = false;                // left out of `qsel --help` (still completes and has a man section)
  const char* exit_three = nullptr;   // what exit code 3 means, for a command with an undecided outcome (verify)
};

const std::vector<Command>& commands();
// Every --format some command speaks, each once, in the order help and completion list
// them: what the global option accepts (require_format then holds each command to its row).
const std::vector<std::string>& output_format_names();

// Runs qsel with `args` (without argv[0]); output to `out`, messages to `err`.
int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// Builds the whole command line (global options and every command in the
// table) on `app`; `runners` receives what runs each command. --help, the
// completions and the man page all read this one tree.
void build_cli(CLI::App& app, Context& ctx, std::vector<std::pair<CLI::App*, Runner>>& runners, bool& version);

// The command-table entry for a subcommand name (nullptr if none).
const Command* find_command(const std::string& name);

// The --version line for the corpus in use.
std::string version_line(Context& ctx);

}  // namespace qsel
