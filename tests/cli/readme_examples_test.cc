// Every command in README.md's Usage block runs on a fresh clone (the files it
// names are in examples/), and the README cites nothing outside the repository.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <sstream>
#include <sys/wait.h>

#include "qsel/cli/app.h"
#include "support/fixtures.h"
#include "support/hub_fixtures.h"

using qsel::test::read_text;
using qsel::test::source_dir;

TEST_CASE("readme: every Usage example runs from the source folder with exit 0", "[docs][readme]") {
  std::string readme = read_text(source_dir() + "/README.md");
  auto from = readme.find("\n## Usage\n");
  auto to = readme.find("\n## ", from + 1);
  REQUIRE(from != std::string::npos);
  std::istringstream block(readme.substr(from, to - from));
  std::string line;
  int ran = 0;
  // The Hub examples read from the fixture Hub on the loopback address, with their own cache.
  qsel::test::HubServer hub;
  qsel::test::serve_qwen3_32b_awq(hub);
  qsel::test::serve_llama_gguf(hub);
  qsel::test::TempDir cache;
  while (std::getline(block, line)) {
    if (line.rfind("qsel ", 0) != 0) continue;
    auto comment = line.find("  #");
    std::string args = line.substr(5, comment == std::string::npos ? std::string::npos : comment - 5);
    INFO(line);
    // From the source folder, as a user in a fresh clone would run it.
    qsel::test::TempDir tmp;
    std::string cmd = "cd '" + source_dir() + "' && " + qsel::test::hub_env(hub, cache) + QSEL_BINARY + " --color never " + args + " >" +
                      (tmp.path() / "out").string() + " 2>" + (tmp.path() / "err").string();
    int status = std::system(cmd.c_str());
    qsel::test::CliResult r;
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = read_text(tmp.path() / "out");
    INFO(read_text(tmp.path() / "err"));
    CHECK(r.code == 0);
    CHECK(!r.out.empty());
    ++ran;
  }
  CHECK(ran >= 15);
}

TEST_CASE("readme: no reference to documents outside the repository", "[docs][readme]") {
  for (const char* file : {"/README.md", "/docs/ci.md"}) {
    std::string text = read_text(source_dir() + file);
    INFO(file);
    CHECK(text.find("DESIGN.md") == std::string::npos);
    // doc 04 / doc 23 only as links to their summary in docs/sources.md
    for (const char* doc : {"doc 04", "doc 23"}) {
      std::size_t at = 0;
      while ((at = text.find(doc, at)) != std::string::npos) {
        auto line_start = text.rfind('\n', at) + 1;
        auto line_end = text.find('\n', at);
        std::string l = text.substr(line_start, line_end - line_start);
        CHECK(l.find("docs/sources.md") != std::string::npos);
        at += 6;
      }
    }
  }
  CHECK(read_text(source_dir() + "/docs/sources.md").find("## Doc 23") != std::string::npos);
}

// The README's `--format` table lists every format of every command, from the one
// command table --help and the completions are generated from (src/cli/commands.cc).
TEST_CASE("readme: the --format table lists every command's formats", "[docs][readme]") {
  std::string readme = read_text(source_dir() + "/README.md");
  for (const auto& c : qsel::commands()) {
    if (c.formats.size() == 1) continue;  // completion, man: text only, named together
    std::string row = std::string("| `") + c.name + "` | ";
    for (std::size_t i = 0; i < c.formats.size(); ++i) row += (i ? ", " : "") + std::string(c.formats[i]);
    row += " |\n";
    INFO(row);
    CHECK(readme.find(row) != std::string::npos);
  }
}
