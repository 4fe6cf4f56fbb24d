// The command-line front end: one table of commands over the library.
#pragma once
#include <functional>
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
};

const std::vector<Command>& commands();

// Runs qsel with `args` (without argv[0]); output to `out`, messages to `err`.
int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// The --version line for the corpus in use.
std::string version_line(Context& ctx);

}  // namespace qsel
