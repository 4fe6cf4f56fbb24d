// Re-runs every `$ qsel …` example in docs/commands/*.md on the embedded corpus and
// compares the output (stdout, then stderr) with the block captured under it, so the
// pages cannot go stale. QSEL_UPDATE_DOCS=1 rewrites the captured blocks instead.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

#include "support/checkpoints.h"
#include "support/fixtures.h"

namespace fs = std::filesystem;
using qsel::test::run_cli;

namespace {

constexpr const char* kPrompt = "$ qsel ";

struct Example {
  std::string command;   // after "$ qsel "
  std::string expected;  // the captured lines, each ending in '\n'
};

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

bool is_fence(const std::string& line) { return line.rfind("```", 0) == 0; }
bool is_command(const std::string& line) { return line.rfind(kPrompt, 0) == 0; }

// Every example inside fenced blocks, in page order.
std::vector<Example> examples_in(const std::string& page) {
  std::vector<Example> out;
  bool fenced = false, in_example = false;
  for (const auto& line : lines_of(page)) {
    if (is_fence(line)) {
      fenced = !fenced;
      in_example = false;
    } else if (fenced && is_command(line)) {
      out.push_back({line.substr(std::string(kPrompt).size()), ""});
      in_example = true;
    } else if (in_example) {
      out.back().expected += line + "\n";
    }
  }
  return out;
}

// Shell-like words: whitespace separates, '…' and "…" group.
std::vector<std::string> shell_words(const std::string& command) {
  std::vector<std::string> out;
  std::string cur;
  char quote = 0;
  bool any = false;
  for (char c : command) {
    if (quote) {
      if (c == quote) quote = 0;
      else cur += c;
    } else if (c == '\'' || c == '"') {
      quote = c;
      any = true;
    } else if (c == ' ') {
      if (any || !cur.empty()) out.push_back(cur);
      cur.clear();
      any = false;
    } else {
      cur += c;
    }
  }
  if (any || !cur.empty()) out.push_back(cur);
  return out;
}

std::string actual_output(const std::string& command) {
  auto r = run_cli(shell_words(command));
  return r.out + r.err;
}

// The page with every example's block replaced by what the command prints now.
std::string updated(const std::string& page) {
  std::string out;
  bool fenced = false, in_example = false;
  for (const auto& line : lines_of(page)) {
    if (is_fence(line)) {
      fenced = !fenced;
      in_example = false;
      out += line + "\n";
      continue;
    }
    if (fenced && is_command(line)) {
      in_example = true;
      out += line + "\n" + actual_output(line.substr(std::string(kPrompt).size()));
      continue;
    }
    if (!in_example) out += line + "\n";
  }
  return out;
}

std::vector<fs::path> pages() {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(fs::path(qsel::test::source_dir()) / "docs" / "commands"))
    if (e.path().extension() == ".md") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("docs_examples: the example parser reads commands and their captured output", "[docs]") {
  auto ex = examples_in("text\n```\n$ qsel list\nA\n\nB\n$ qsel show 'a b'\nC\n```\n$ qsel outside\n```sh\nqsel x | y\n```\n");
  REQUIRE(ex.size() == 2);
  CHECK(ex[0].command == "list");
  CHECK(ex[0].expected == "A\n\nB\n");
  CHECK(shell_words(ex[1].command) == std::vector<std::string>{"show", "a b"});
  CHECK(ex[1].expected == "C\n");
  CHECK(shell_words("a \"\" b") == std::vector<std::string>{"a", "", "b"});
}

namespace {

// The files the inspect and verify pages read, in a scratch folder the examples run in:
// three the pages say the test suite writes (tiny-awq/, a tiny AutoAWQ checkpoint;
// tiny-q4km.gguf; broken.gguf), and copies of repository files at their own paths
// (examples/…, tests/fixtures/…), so a reader runs those lines as printed from a clone.
const std::vector<std::string> kWrittenByTheTest = {"tiny-awq", "tiny-q4km.gguf", "broken.gguf"};
const std::vector<std::string> kCopiedFromTheRepository = {"examples/logs/vllm-marlin-ampere-rtx3090.log",
                                                           "examples/logs/vllm-nvfp4-marlin-fallback-warning.log",
                                                           "tests/fixtures/logs/llamacpp-cuda-init-rtx4070.log",
                                                           "examples/deepseek-r1/config.json"};

struct ExampleFiles {
  qsel::test::TempDir dir;
  fs::path old = fs::current_path();
  ExampleFiles() {
    using nlohmann::json;
    qsel::test::write_checkpoint(dir, "tiny-awq",
                                 qsel::test::tiny_config({{"quant_method", "awq"}, {"bits", 4}, {"group_size", 128}, {"zero_point", true},
                                                          {"version", "gemm"}}),
                                 qsel::test::awq_tensors());
    qsel::test::GgufWriter w;
    w.str("general.architecture", "llama");
    w.str("general.name", "tiny");
    w.u32("general.file_type", 15);
    w.u32("llama.block_count", 1);
    w.u32("llama.embedding_length", 256);
    w.u32("llama.attention.head_count", 4);
    w.u32("llama.attention.head_count_kv", 2);
    w.str_array("tokenizer.ggml.tokens", std::vector<std::string>(256, "t"));
    w.tensor("token_embd.weight", {256, 256}, 12, 256, 144);
    w.tensor("blk.0.attn_norm.weight", {256}, 0, 1, 4);
    w.tensor("blk.0.attn_q.weight", {256, 256}, 12, 256, 144);
    w.tensor("blk.0.attn_v.weight", {256, 128}, 14, 256, 210);
    w.tensor("blk.0.ffn_down.weight", {512, 256}, 14, 256, 210);
    w.tensor("blk.0.ffn_up.weight", {256, 512}, 12, 256, 144);
    w.tensor("output.weight", {256, 256}, 14, 256, 210);
    dir.write("tiny-q4km.gguf", w.bytes());
    dir.write("broken.gguf", w.bytes().substr(0, 200));  // cut inside the metadata
    for (const auto& file : kCopiedFromTheRepository) dir.write(file, qsel::test::read_text(qsel::test::source_dir() + "/" + file));
    fs::current_path(dir.path());
  }
  ~ExampleFiles() { fs::current_path(old); }
};

}  // namespace

TEST_CASE("docs_examples: every `$ qsel` example in docs/commands prints what the page shows", "[docs]") {
  setenv("NO_COLOR", "1", 1);
  ExampleFiles files_for_examples;
  bool update = std::getenv("QSEL_UPDATE_DOCS") != nullptr;
  auto files = pages();
  for (const char* page : {"list.md", "show.md", "matrix.md", "graph.md"})
    CHECK(std::find(files.begin(), files.end(), fs::path(qsel::test::source_dir()) / "docs" / "commands" / page) != files.end());
  std::size_t checked = 0;
  for (const auto& file : files) {
    std::string page = qsel::test::read_text(file);
    if (update) {
      std::ofstream(file, std::ios::binary) << updated(page);
      WARN("rewrote " << file.filename().string());
      page = qsel::test::read_text(file);
    }
    for (const auto& ex : examples_in(page)) {
      INFO(file.filename().string() << ": $ qsel " << ex.command);
      CHECK(actual_output(ex.command) == ex.expected);
      ++checked;
    }
  }
  CHECK(checked >= 12);
}

// A path in an example is a file of the repository (run from a clone, the line works as
// printed) or one of the three the pages say the test suite writes: never a file that
// exists only in the test's scratch folder under a repository-looking name.
TEST_CASE("docs_examples: every file an example names is in the repository or said to be written by the tests", "[docs]") {
  std::size_t paths = 0;
  for (const auto& file : pages()) {
    for (const auto& ex : examples_in(qsel::test::read_text(file))) {
      for (const auto& word : shell_words(ex.command)) {
        bool pathish = word.find('/') != std::string::npos || word.ends_with(".gguf") || word.ends_with(".log") || word.ends_with(".json");
        if (!pathish || word.starts_with("-") || word.find("://") != std::string::npos) continue;
        std::string first = word.substr(0, word.find('/'));
        if (std::find(kWrittenByTheTest.begin(), kWrittenByTheTest.end(), first) != kWrittenByTheTest.end()) continue;
        if (first != "examples" && first != "tests" && first != "data") continue;  // ORG/NAME Hub ids, output files
        INFO(file.filename().string() << ": $ qsel " << ex.command << ": " << word);
        CHECK(fs::exists(fs::path(qsel::test::source_dir()) / word));
        ++paths;
      }
    }
  }
  CHECK(paths >= 6);
}
