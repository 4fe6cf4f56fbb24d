// `qsel lint` shows each finding's source line: the linter reads it from the
// file (attach_snippets), the text renderer only formats it.
#include <catch2/catch.hpp>

#include "lint/lint_support.h"
#include "qsel/lint/snippet.h"

using namespace qsel;
using namespace qsel::test;
namespace fs = std::filesystem;

TEST_CASE("snippet: lint reads each finding's line from its file", "[lint][snippet]") {
  TempDir d;
  d.write("formats/q.yaml", minimal_record("format", "q", "weight_bits: four\n"));
  LintReport r = lint_all(d.path());
  REQUIRE(r.findings.size() == 1);
  const Finding& f = r.findings[0];
  REQUIRE(f.mark == Mark{6, 14});
  REQUIRE(f.snippet);
  CHECK(f.snippet->text == "weight_bits: four");
  CHECK(f.snippet->column == 14);
  CHECK(!f.snippet->cut_before);
  CHECK(!f.snippet->cut_after);
}

TEST_CASE("snippet: findings without a position or a readable file get none", "[lint][snippet]") {
  TempDir d;
  d.write("formats/q.yaml", "id: q\nname: x\n");
  Findings fs_ = {{"QS013", "unknown-kind-folder", Severity::Warning, (d.path() / "widgets").string(), {}, "", "m", {}},
                  {"QS001", "schema", Severity::Error, (d.path() / "formats/gone.yaml").string(), {2, 1}, "", "m", {}},
                  {"QS001", "schema", Severity::Error, (d.path() / "formats").string(), {2, 1}, "", "m", {}},
                  {"QS001", "schema", Severity::Error, (d.path() / "formats/q.yaml").string(), {9, 1}, "", "m", {}},
                  {"QS001", "schema", Severity::Error, (d.path() / "formats/q.yaml").string(), {3, 1}, "", "m", {}},
                  {"QS001", "schema", Severity::Error, (d.path() / "formats/q.yaml").string(), {2, 7}, "", "m", {}}};
  attach_snippets(fs_);
  CHECK(!fs_[0].snippet);
  CHECK(!fs_[1].snippet);  // no such file
  CHECK(!fs_[2].snippet);  // a folder
  CHECK(!fs_[3].snippet);  // past the end of the file
  REQUIRE(fs_[4].snippet);  // the empty line after the last line break
  CHECK(fs_[4].snippet->text.empty());
  REQUIRE(fs_[5].snippet);
  CHECK(fs_[5].snippet->text == "name: x");
}

TEST_CASE("snippet e2e: an unterminated quote is a located QS006 with its line", "[lint][snippet][e2e]") {
  qsel::test::ScopedEnv wide("COLUMNS", "1000");  // what is said, not where lines break
  TempDir d;
  d.write("formats/q.yaml", minimal_record("format", "q") + "notes: \"unterminated\n");
  auto r = run_cli({"lint", "--no-color", d.path().string()});
  CHECK(r.code == 1);
  std::string file = (d.path() / "formats/q.yaml").string();
  CHECK(r.out == file + ":10:8: error: unterminated double-quoted string: no closing \" before the end of the file "
                        "[QS006 invalid-yaml]\n"
                        "    |\n"
                        " 10 | notes: \"unterminated\n"
                        "    |        ^\n"
                        "    = see: qsel explain QS006\n"
                        "\n"
                        "1 error, 0 warnings in 0 records (1 file)\n");
}

TEST_CASE("snippet e2e: control characters in the line are escaped, long lines cut", "[lint][snippet][e2e]") {
  qsel::test::ScopedEnv wide("COLUMNS", "1000");  // what is said, not where lines break
  TempDir d;
  d.write("formats/q.yaml", minimal_record("format", "q", "weight_bits: \"\x1b[2J\a four\"\n"));
  d.write("formats/r.yaml", minimal_record("format", "r", "weight_bits: \"" + std::string(5000, 'x') + "\"\n"));
  auto r = run_cli({"lint", "--no-color", d.path().string()});
  CHECK(r.code == 1);
  CHECK(r.out.find('\x1b') == std::string::npos);
  CHECK(r.out.find('\a') == std::string::npos);
  CHECK(r.out.find(" 6 | weight_bits: \"\\x1b[2J\\x07 four\"\n") != std::string::npos);
  CHECK(r.out.find(" 6 | weight_bits: \"" + std::string(186, 'x') + "…\n") != std::string::npos);
}
