// Re-runs every `$ qsel …` example in docs/commands/*.md on the embedded corpus and
// compares the output (stdout, then stderr) with the block captured under it, so the
// pages cannot go stale. QSEL_UPDATE_DOCS=1 rewrites the captured blocks instead.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

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
std::vector<std::string> words(const std::string& command) {
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
  auto r = run_cli(words(command));
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
  CHECK(words(ex[1].command) == std::vector<std::string>{"show", "a b"});
  CHECK(ex[1].expected == "C\n");
  CHECK(words("a \"\" b") == std::vector<std::string>{"a", "", "b"});
}

TEST_CASE("docs_examples: every `$ qsel` example in docs/commands prints what the page shows", "[docs]") {
  setenv("NO_COLOR", "1", 1);
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
