#include "support/fixtures.h"

#include <array>
#include <cstdlib>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>

#include <sys/wait.h>

#include "qsel/cli/app.h"
#include "qsel/loader/corpus_blob.h"

namespace qsel::test {
namespace fs = std::filesystem;

TempDir::TempDir() {
  std::random_device rd;
  path_ = fs::temp_directory_path() / ("qsel-test-" + std::to_string(rd()) + std::to_string(rd()));
  fs::create_directories(path_);
}

TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

fs::path TempDir::write(const std::string& rel, const std::string& text) const {
  fs::path p = path_ / rel;
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
  return p;
}

const SchemaSet& schemas() {
  static const SchemaSet set(embedded().schemas);
  return set;
}

CliResult run_cli(const std::vector<std::string>& args) {
  std::ostringstream out, err;
  CliResult r;
  r.code = run(args, out, err);
  r.out = out.str();
  r.err = err.str();
  return r;
}

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

CliResult run_binary(const std::string& args) { return run_binary_env("", args); }

CliResult run_binary_env(const std::string& env, const std::string& args) {
  TempDir tmp;
  std::string cmd = env + std::string(QSEL_BINARY) + " " + args + " >" + (tmp.path() / "out").string() + " 2>" +
                    (tmp.path() / "err").string();
  int status = std::system(cmd.c_str());
  CliResult r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = read_text(tmp.path() / "out");
  r.err = read_text(tmp.path() / "err");
  return r;
}

ScopedEnv::ScopedEnv(const char* name, const char* value) : name_(name) {
  if (const char* v = std::getenv(name)) had_ = true, saved_ = v;
  setenv(name, value, 1);
}

ScopedEnv::~ScopedEnv() {
  if (had_) setenv(name_.c_str(), saved_.c_str(), 1);
  else unsetenv(name_.c_str());
}

std::string source_dir() { return QSEL_SOURCE_DIR; }

std::string replace_once(std::string text, const std::string& from, const std::string& to) {
  auto at = text.find(from);
  if (at == std::string::npos) throw std::logic_error("replace_once: \"" + from + "\" not found");
  return text.replace(at, from.size(), to);
}

std::string minimal_record(const std::string& kind, const std::string& id, const std::string& extra) {
  static const std::map<std::string, std::string> required = {
      {"format", "scheme: awq\nregime: w4a16\n"},
      {"accelerator", "vendor: nvidia\ntarget: sm90\n"},
      {"target", "vendor: nvidia\nplatform: cuda\n"},
      {"kernel", "mode: dequant\nruns_on: {}\n"},
      {"engine", "kernel_selection: []\n"},
      {"matrix", "engine: e\ncolumns:\n  - {key: c, label: C}\nrows:\n  - {key: r, label: R, match: {}, cells: {c: \"Y\"}}\n"},
      {"benchmark", "format_id: f\nmetric: ppl\ngrade: paper\n"},
      {"gotcha", "severity: minor\nsilent: false\napplies: {}\n"},
      {"model", "params_b: 1\nlayers: 2\nhidden_size: 8\nkv_heads: 1\nhead_dim: 4\nvocab_size: 10\nattention: gqa\n"},
      {"technique", "statement: s\n"}, {"fact", "statement: s\n"}, {"question", "statement: s\n"},
  };
  return "id: " + id + "\nkind: " + kind + "\nname: " + id + "\n" + required.at(kind) + extra +
         "status: draft\nconfidence: 0.5\nsources:\n  - title: test\n";
}

}  // namespace qsel::test
