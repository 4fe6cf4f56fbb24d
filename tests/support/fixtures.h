// Helpers shared by the tests: temporary corpora, running the CLI in-process
// and as a subprocess, and the schemas.
#pragma once
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "qsel/loader/loader.h"

namespace qsel::test {

// A fresh directory under the system temp dir, removed when the object dies.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  const std::filesystem::path& path() const { return path_; }
  // Writes `text` to path()/rel (creating folders) and returns the full path.
  std::filesystem::path write(const std::string& rel, const std::string& text) const;

 private:
  std::filesystem::path path_;
};

const SchemaSet& schemas();  // the schemas of the embedded corpus

struct CliResult {
  int code = 0;
  std::string out, err;
};
CliResult run_cli(const std::vector<std::string>& args);          // in-process
CliResult run_binary(const std::string& args);                     // the built qsel, via the shell
CliResult run_binary_env(const std::string& env, const std::string& args);  // the same after a shell prefix ("env X=1 ")

// An environment variable set for the life of the object, then restored (or unset).
// COLUMNS=1000 keeps an exact-output test about what is said, not where lines
// break (tests/cli/terminal_width_test.cc checks the breaking).
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value);
  ~ScopedEnv();
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  std::string name_, saved_;
  bool had_ = false;
};

std::string source_dir();
std::string read_text(const std::filesystem::path& p);

// `text` with the first `from` replaced by `to` (which must occur).
std::string replace_once(std::string text, const std::string& from, const std::string& to);

// A minimal valid record of each kind, for building small corpora.
std::string minimal_record(const std::string& kind, const std::string& id, const std::string& extra = "");

// 1 in the Release build; 3 under the sanitizers, where the exhaustive sweeps (every
// advice case, every format on every target, every mutated record) check a
// deterministic third of their items — the Release run checks all of them.
#ifdef QSEL_SANITIZED_BUILD
inline constexpr int kSweepStride = 3;
#else
inline constexpr int kSweepStride = 1;
#endif

}  // namespace qsel::test

#include <catch2/catch.hpp>
#include "qsel/core/problem.h"
namespace Catch {
template <> struct StringMaker<qsel::Mark> {
  static std::string convert(const qsel::Mark& m) { return std::to_string(m.line) + ":" + std::to_string(m.column); }
};
}  // namespace Catch
