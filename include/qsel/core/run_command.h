// Running a fixed local tool (nvidia-smi, rocm-smi, sysctl) and reading what it
// prints, bounded: the output is capped; the tool runs in its own process group,
// which is killed when the timeout passes (reading or waiting for the exit) and
// once the tool is done, so nothing it started outlives it; nothing from the user
// reaches the command line.
#pragma once
#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace qsel {

struct CommandResult {
  int exit_code = 0;
  std::string out;        // stdout, at most the cap
  bool truncated = false;
  bool timed_out = false;
  double seconds = 0;     // how long the tool was given: until it ended, flooded, or the time it had (when timed out)
};

struct CommandOptions {
  std::string path;               // directories to search, ':'-separated; empty = the PATH environment variable
  int timeout_ms = 10000;
  std::size_t max_bytes = 1 << 20;
  // The latest moment the tool may run to, whatever timeout_ms leaves: a caller running
  // several tools gives them one deadline (--gpu auto's whole detection).
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
};

// The executable regular file `program` names in `path` (or PATH); empty when none.
std::string find_program(const std::string& program, const std::string& path);

// Runs argv[0], looked up with find_program. Nothing when the program is not
// installed or cannot be started.
std::optional<CommandResult> run_command(const std::vector<std::string>& argv, const CommandOptions& opts = {});

}  // namespace qsel
