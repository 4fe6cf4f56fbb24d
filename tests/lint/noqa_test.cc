// # qsel: noqa comments (src/lint/noqa.cc): the comment scanner, the directive
// parser, suppression, QS046/QS047 and their fixes; then every fixture in
// tests/fixtures/noqa/ (input beside its expected findings and fixed text).
#include <catch2/catch.hpp>

#include <chrono>
#include <fstream>

#include "lint/lint_support.h"
#include "qsel/lint/fixer.h"
#include "qsel/lint/noqa.h"

using namespace qsel;
using namespace qsel::test;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> comment_texts(std::string_view text) {
  std::vector<std::string> out;
  for (const YamlComment& c : yaml_comments(text))
    out.push_back(fmt::format("{}:{} {}", c.line, c.column, text.substr(c.begin, c.end - c.begin)));
  return out;
}

Finding at(const std::string& code, int line, int column = 1) {
  return {code, "", Severity::Error, "f.yaml", {line, column}, "", "m", std::nullopt};
}

std::string codes_of(const Findings& fs) {
  std::string out;
  for (const Finding& f : fs) out += fmt::format("{}@{}:{} ", f.code, f.mark.line, f.mark.column);
  return out;
}

std::string fixed(std::string_view text, const Findings& fs) {
  std::vector<Fix> fixes;
  for (const Finding& f : fs)
    if (f.fix) fixes.push_back(*f.fix);
  std::size_t n = 0;
  return apply_fixes(text, fixes, n);
}

}  // namespace

TEST_CASE("noqa: comments are found where YAML has them, and nowhere else", "[lint][noqa]") {
  std::string text =
      "a: 1 # one\n"
      "b: \"x # not\" # two\n"
      "c: 'it''s # not' #three\n"
      "url: https://x.org/p#frag\n"
      "d: a#b\n"
      "e: |  # four\n"
      "  # not: block text\n"
      "\n"
      "  more # not\n"
      "f: >-\n"
      "    # not either\n"
      "g: [1, \"#\", 2] # five\n"
      "h: \"multi\n"
      "  line # still quoted\"  # six\n"
      "# seven\n"
      "  - it's # eight\n";
  CHECK(comment_texts(text) == std::vector<std::string>{"1:6 # one", "2:14 # two", "3:18 #three", "6:7 # four",
                                                        "12:16 # five", "14:25 # six", "15:1 # seven", "16:10 # eight"});
}

TEST_CASE("noqa: directives parse as ruff's noqa does", "[lint][noqa]") {
  auto one = [](const std::string& line) {
    auto d = noqa_directives(line);
    REQUIRE(d.size() == 1);
    return d[0];
  };
  auto d = one("x: 1  # qsel: noqa: QS005, qs012,QS004");
  CHECK(d.column == 7);
  CHECK_FALSE(d.file_level);
  CHECK(d.problem.empty());
  REQUIRE(d.codes.size() == 3);
  CHECK(d.codes[1].code == "QS012");
  CHECK(d.codes[2].column == 34);
  CHECK(one("x: 1 #qsel:noqa").is_blanket());
  CHECK(one("x: 1 # QSEL: NOQA because the seed says so").is_blanket());
  CHECK(one("# qsel: noqa-file").file_level);
  CHECK(one("# qsel: noqa-file: QS005 QS012 -- seeds").codes.size() == 2);
  CHECK(one("x: 1 # qsel: noqa QS005").problem.find("a ':' goes between") != std::string::npos);
  CHECK(one("x: 1 # qsel: noqa:").problem.find("expected codes") != std::string::npos);
  CHECK(one("x: 1 # qsel: noqa: contested-bpw").problem.find("expected codes") != std::string::npos);
  CHECK(one("x: 1 # qsel: noqa-fle").problem == "unknown qsel directive \"noqa-fle\" (expected noqa or noqa-file)");
  CHECK_FALSE(one("x: 1 # qsel: noqa: QS999").codes[0].known);
  CHECK(noqa_directives("x: \"# qsel: noqa\"\n# just a comment about qsel\n").empty());
}

TEST_CASE("noqa: suppression by line and by file, and what is left unused", "[lint][noqa]") {
  LintSettings s;
  std::string text =
      "a: 1  # qsel: noqa: QS004\n"   // used
      "b: 2  # qsel: noqa\n"          // used (blanket)
      "c: 3  # qsel: noqa: QS005\n"   // unused: nothing on line 3
      "d: 4  # qsel: noqa: QS004, QS005\n";  // QS005 unused
  Findings fs = {at("QS004", 1, 4), at("QS003", 2, 4), at("QS004", 4, 4)};
  CHECK(apply_noqa_to_file(fs, "f.yaml", text, s) == 3);
  sort_findings(fs);
  CHECK(codes_of(fs) == "QS046@3:7 QS046@4:7 ");
  CHECK(fs[0].message == "unused noqa directive (unused: QS005)");
  CHECK(fixed(text, fs) == "a: 1  # qsel: noqa: QS004\nb: 2  # qsel: noqa\nc: 3\nd: 4  # qsel: noqa: QS004\n");

  Findings other = {at("QS004", 1, 4)};
  other[0].file = "g.yaml";  // another file's finding: untouched
  CHECK(apply_noqa_to_file(other, "f.yaml", "# qsel: noqa-file\n", s) == 0);
  CHECK(codes_of(other) == "QS004@1:4 QS046@1:1 ");
}

TEST_CASE("noqa: a file-level QS046 silences the unused line directives, and --ignore and --select hold", "[lint][noqa]") {
  std::string text = "# qsel: noqa-file: QS046\na: 1  # qsel: noqa: QS005\n";
  LintSettings s;
  Findings fs;
  apply_noqa_to_file(fs, "f.yaml", text, s);
  CHECK(fs.empty());
  LintSettings ignore;
  ignore.ignore = {"QS046"};
  Findings none;
  apply_noqa_to_file(none, "f.yaml", "a: 1  # qsel: noqa: QS005\n", ignore);
  CHECK(none.empty());
  LintSettings only;
  only.select = {"QS046"};  // QS005 is not enabled: reported as such, as ruff's "non-enabled"
  apply_noqa_to_file(none, "f.yaml", "a: 1  # qsel: noqa: QS005\n", only);
  REQUIRE(none.size() == 1);
  CHECK(none[0].message == "unused noqa directive (not enabled: QS005)");
}

TEST_CASE("noqa: the fixes of QS046 change only the directive's bytes", "[lint][noqa]") {
  LintSettings s;
  auto fix_of = [&](const std::string& text) {
    Findings fs;
    apply_noqa_to_file(fs, "f.yaml", text, s);
    return fixed(text, fs);
  };
  CHECK(fix_of("a: 1\t# qsel: noqa\nb: 2\n") == "a: 1\nb: 2\n");
  CHECK(fix_of("a: 1\n  # qsel: noqa: QS004\nb: 2\n") == "a: 1\nb: 2\n");             // a line of its own goes whole
  CHECK(fix_of("a: 1  # why # qsel: noqa\n") == "a: 1  # why\n");                      // the rest of the comment stays
  CHECK(fix_of("a: 1  # qsel: noqa # why\n") == "a: 1  # why\n");
  CHECK(fix_of("a: 1  # qsel: noqa: QS005,QS04\r\n") == "a: 1  # qsel: noqa: QS04\r\n");  // QS047's code is left to a person
  CHECK(fix_of("x: \"é\"  # qsel: noqa: QS005\n") == "x: \"é\"\n");                   // columns count characters
  CHECK(fix_of("# qsel: noqa-file") == "");
}

TEST_CASE("noqa: a large file with many comments is scanned quickly", "[lint][noqa]") {
  std::string text;
  for (int i = 0; i < 20000; ++i) text += fmt::format("k{}: \"v # {}\"  # note {} qsel\n", i, i, i);
  auto start = std::chrono::steady_clock::now();
  Findings fs;
  apply_noqa_to_file(fs, "f.yaml", text, LintSettings{});
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(1));
  CHECK(fs.empty());
}

TEST_CASE("noqa: every fixture in tests/fixtures/noqa lints to its expected findings and fixes", "[lint][noqa][fixtures]") {
  fs::path root = fs::path(source_dir()) / "tests/fixtures/noqa";
  std::size_t cases = 0;
  for (const auto& entry : fs::directory_iterator(root)) {
    if (!entry.is_directory()) continue;
    ++cases;
    fs::path dir = entry.path();
    INFO(dir.filename().string());
    LintReport r = lint_all(dir);
    std::string got;
    for (const Finding& f : r.findings) {
      std::string file = fs::path(f.file).lexically_relative(dir).generic_string();
      got += fmt::format("{}:{}:{}: {} {}\n", file, f.mark.line, f.mark.column, f.code, f.message);
    }
    CHECK(got == read_text(dir / "expected.txt"));
    if (fs::exists(dir / "fixed.yaml")) {
      std::vector<FileEdit> edits = plan_fixes(r.findings);
      REQUIRE(edits.size() == 1);
      CHECK(edits[0].after == read_text(dir / "fixed.yaml"));
    }
  }
  CHECK(cases == 11);
}

TEST_CASE("QS046 unused-noqa fires on a directive that suppresses nothing, with a fix", "[lint][QS046]") {
  TempDir d;
  d.write("formats/awq.yaml", replaced(minimal_record("format", "awq"), "regime: w4a16\n", "regime: w4a16  # qsel: noqa: QS004\n"));
  auto only = lint_code(d.path(), "QS046");  // QS004 is off in this run: said so, as ruff's "non-enabled"
  REQUIRE(only.size() == 1);
  CHECK(where(only[0], d.path()) == "formats/awq.yaml:5:16: unused noqa directive (not enabled: QS004)");
  LintSettings s;
  s.select = {"QS004", "QS046"};
  auto f = lint_both_ways({d.path().string()}, s).findings;
  REQUIRE(f.size() == 1);
  CHECK(where(f[0], d.path()) == "formats/awq.yaml:5:16: unused noqa directive (unused: QS004)");
  REQUIRE(f[0].fix);
  CHECK(f[0].fix->old_text == "  # qsel: noqa: QS004");
  CHECK(f[0].fix->new_text.empty());
}

TEST_CASE("QS046 unused-noqa is clean when every directive suppresses a finding", "[lint][QS046]") {
  TempDir d;
  d.write("formats/q.yaml", replaced(minimal_record("format", "q", "ggml_type: Q4_K\nweight_group_size: 256  # qsel: noqa: QS004\n"),
                                     "scheme: awq", "scheme: gguf"));
  LintSettings s;
  s.select = {"QS004", "QS046"};
  CHECK(lint_both_ways({d.path().string()}, s).findings.empty());
}

TEST_CASE("QS047 invalid-noqa fires on an unknown code and a malformed directive", "[lint][QS047]") {
  TempDir d;
  d.write("formats/awq.yaml", replaced(minimal_record("format", "awq"), "regime: w4a16\n",
                                       "regime: w4a16  # qsel: noqa: QS999\nnotes: x  # qsel: noqa-fle\n"));
  auto f = lint_code(d.path(), "QS047");
  REQUIRE(f.size() == 2);
  CHECK(where(f[0], d.path()).rfind("formats/awq.yaml:5:30: unknown code \"QS999\" in a noqa directive", 0) == 0);
  CHECK(where(f[1], d.path()) == "formats/awq.yaml:6:11: malformed noqa directive: unknown qsel directive \"noqa-fle\" (expected noqa or noqa-file)");
  CHECK_FALSE(f[0].fix);
}

TEST_CASE("QS047 invalid-noqa is clean on well-formed directives and on comments that are not directives", "[lint][QS047]") {
  TempDir d;
  d.write("formats/awq.yaml", replaced(minimal_record("format", "awq"), "regime: w4a16\n",
                                       "regime: w4a16  # qsel: noqa: QS005 kept\n# qsel is the tool; not a directive\n"));
  CHECK(lint_code(d.path(), "QS047").empty());
}
