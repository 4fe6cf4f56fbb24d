#include <catch2/catch.hpp>

#include "qsel/core/text.h"
#include "qsel/lint/snippet.h"
#include "qsel/report/lint_report.h"

using namespace qsel;

namespace {

LintReport sample() {
  LintReport r;
  r.findings = {{"QS004", "kquant-group-size", Severity::Error, "data/formats/q.yaml", {9, 20}, "q", "weight_group_size 256 is the Q4_K super-block; its scale group is 32", {}},
                {"QS010", "file-too-large", Severity::Warning, "data/formats/big.yaml", {}, "", "file is big", {}}};
  r.findings[0].snippet = snippet_of_line("weight_group_size: 256", 20);
  r.files = 2;
  r.records = 1;
  return r;
}

// One error at `mark` whose source line is `line`, rendered without colour on a terminal of `width`
// (wide enough by default that the window is the lint layer's).
std::string one(const std::string& line, Mark mark, Severity severity = Severity::Error, std::size_t width = 1000) {
  LintReport r;
  r.findings = {{"QS006", "invalid-yaml", severity, "f.yaml", mark, "", "problem", {}}};
  r.findings[0].snippet = snippet_of_line(line, mark.column);
  r.files = 1;
  Style st;
  st.width = width;
  std::string out = render_lint_text(r, st);
  return out.substr(0, out.rfind('\n', out.size() - 2) + 1);  // without the summary line
}

}  // namespace

TEST_CASE("lint_text: each finding with its source line and caret, the summary last", "[report][lint]") {
  CHECK(render_lint_text(sample(), Style{}) ==
        "data/formats/q.yaml:9:20: error: weight_group_size 256 is the Q4_K super-block; its scale group is\n"
        "    32 [QS004 kquant-group-size]\n"
        "   |\n"
        " 9 | weight_group_size: 256\n"
        "   |                    ^\n"
        "   = see: qsel explain QS004\n"
        "\n"
        "data/formats/big.yaml: warning: file is big [QS010 file-too-large]\n"
        "   = see: qsel explain QS010\n"
        "\n"
        "1 error, 1 warning in 1 record (2 files)\n");
}

TEST_CASE("lint_text: the gutter widens with the line number", "[report][lint]") {
  CHECK(one("  name: x", {1234, 9}) ==
        "f.yaml:1234:9: error: problem [QS006 invalid-yaml]\n"
        "      |\n"
        " 1234 |   name: x\n"
        "      | " + std::string(8, ' ') + "^\n"
        "      = see: qsel explain QS006\n"
        "\n");
}

TEST_CASE("lint_text: the caret lands under the character after multi-byte UTF-8", "[report][lint]") {
  // Marks count characters: "é" and "€" are one each, "漢" and "😀" take two cells on a terminal.
  CHECK(one("name: \"café € 3\"", {2, 15}) ==
        "f.yaml:2:15: error: problem [QS006 invalid-yaml]\n"
        "   |\n"
        " 2 | name: \"café € 3\"\n"
        "   | " + std::string(14, ' ') + "^\n"
        "   = see: qsel explain QS006\n"
        "\n");
  CHECK(one("k: 漢字 😀 x", {3, 9}) ==
        "f.yaml:3:9: error: problem [QS006 invalid-yaml]\n"
        "   |\n"
        " 3 | k: 漢字 😀 x\n"
        "   | " + std::string(11, ' ') + "^\n"
        "   = see: qsel explain QS006\n"
        "\n");
}

TEST_CASE("lint_text: tabs print as four spaces and the caret follows", "[report][lint]") {
  CHECK(one("\tkey:\tvalue", {4, 7}) ==
        "f.yaml:4:7: error: problem [QS006 invalid-yaml]\n"
        "   |\n"
        " 4 |     key:    value\n"
        "   | " + std::string(12, ' ') + "^\n"
        "   = see: qsel explain QS006\n"
        "\n");
}

TEST_CASE("lint_text: a finding without a position gets only the see line", "[report][lint]") {
  LintReport r;
  r.findings = {{"QS013", "unknown-kind-folder", Severity::Warning, "data/widgets", {}, "", "not a kind", {}}};
  CHECK(render_lint_text(r, Style{}) ==
        "data/widgets: warning: not a kind [QS013 unknown-kind-folder]\n"
        "   = see: qsel explain QS013\n"
        "\n"
        "0 errors, 1 warning in 0 records (0 files)\n");
  // A position whose file could not be read: the location stays, the snippet is left out.
  r.findings[0].mark = {3, 1};
  CHECK(render_lint_text(r, Style{}) ==
        "data/widgets:3:1: warning: not a kind [QS013 unknown-kind-folder]\n"
        "   = see: qsel explain QS013\n"
        "\n"
        "0 errors, 1 warning in 0 records (0 files)\n");
}

TEST_CASE("lint_text: a long line is cut to a window around the column", "[report][lint]") {
  std::string line = "notes: " + std::string(300, 'a') + "X" + std::string(300, 'b');
  Snippet sn = snippet_of_line(line, 308);
  CHECK(sn.cut_before);
  CHECK(sn.cut_after);
  CHECK(utf8_length(sn.text) == kSnippetChars);
  CHECK(sn.column == 101);
  std::string out = one(line, {5, 308});
  std::string shown = std::string(100, 'a') + "X" + std::string(99, 'b');
  CHECK(out == "f.yaml:5:308: error: problem [QS006 invalid-yaml]\n"
               "   |\n"
               " 5 | …" + shown + "…\n"
               "   | " + std::string(101, ' ') + "^\n"
               "   = see: qsel explain QS006\n"
               "\n");
  // On a terminal of 100 columns the window narrows to fit it, the caret still under the X.
  std::string narrow = one(line, {5, 308}, Severity::Error, 100);
  std::string fitted = std::string(46, 'a') + "X" + std::string(46, 'b');
  CHECK(narrow == "f.yaml:5:308: error: problem [QS006 invalid-yaml]\n"
                  "   |\n"
                  " 5 | …" + fitted + "…\n"
                  "   | " + std::string(47, ' ') + "^\n"
                  "   = see: qsel explain QS006\n"
                  "\n");
  // Near either end, the window keeps its full width and is cut on one side only.
  Snippet start = snippet_of_line(line, 3);
  CHECK(!start.cut_before);
  CHECK(start.cut_after);
  CHECK(start.column == 3);
  CHECK(start.text == line.substr(0, kSnippetChars));
  Snippet end = snippet_of_line(line, static_cast<int>(line.size()));
  CHECK(end.cut_before);
  CHECK(!end.cut_after);
  CHECK(end.text == line.substr(line.size() - kSnippetChars));
  CHECK(end.column == static_cast<int>(kSnippetChars));
  // The window counts characters, not bytes: the last 200 of 150 "a" and 150 "é".
  std::string e150;
  for (int i = 0; i < 150; ++i) e150 += "é";
  Snippet w = snippet_of_line(std::string(150, 'a') + e150, 300);
  CHECK(w.text == std::string(50, 'a') + e150);
  CHECK(w.column == 200);
}

TEST_CASE("lint_text: control characters in the line are escaped, the caret follows", "[report][lint]") {
  CHECK(one("name: \"\x1b[31mred\a\" x", {6, 19}) ==
        "f.yaml:6:19: error: problem [QS006 invalid-yaml]\n"
        "   |\n"
        " 6 | name: \"\\x1b[31mred\\x07\" x\n"
        "   | " + std::string(24, ' ') + "^\n"
        "   = see: qsel explain QS006\n"
        "\n");
  CHECK(one("a: b\r", {1, 4}).find(" 1 | a: b\n") != std::string::npos);  // CRLF files: the CR is the line break
}

TEST_CASE("lint_text: a caret past the end of the line", "[report][lint]") {
  CHECK(one("key: [a,", {7, 9}) ==
        "f.yaml:7:9: error: problem [QS006 invalid-yaml]\n"
        "   |\n"
        " 7 | key: [a,\n"
        "   | " + std::string(8, ' ') + "^\n"
        "   = see: qsel explain QS006\n"
        "\n");
  CHECK(one("", {8, 1}) ==
        "f.yaml:8:1: error: problem [QS006 invalid-yaml]\n"
        "   |\n"
        " 8 |\n"
        "   | ^\n"
        "   = see: qsel explain QS006\n"
        "\n");
}

TEST_CASE("lint_text: the summary counts, plurals and baselined findings", "[report][lint]") {
  LintReport r;
  r.files = 290;
  r.records = 290;
  CHECK(lint_summary_line(r) == "0 errors, 0 warnings in 290 records (290 files)");
  r.baselined = 3;
  CHECK(lint_summary_line(r) == "0 errors, 0 warnings in 290 records (290 files); 3 baselined");
}

TEST_CASE("lint_text: colour on request only", "[report][lint]") {
  Style color;
  color.color = true;
  std::string out = render_lint_text(sample(), color);
  CHECK(out.find("\x1b[31merror\x1b[0m") != std::string::npos);
  CHECK(out.find("\x1b[33mwarning\x1b[0m") != std::string::npos);
  CHECK(out.find("\x1b[31m^\x1b[0m") != std::string::npos);   // the caret in the severity's colour
  CHECK(out.find("\x1b[36m9 |\x1b[0m") != std::string::npos);  // the gutter in cyan
  CHECK(render_lint_text(sample(), Style{}).find('\x1b') == std::string::npos);
}

TEST_CASE("lint_text: the rule table lists every rule", "[report][lint]") {
  std::vector<RuleInfo> rules = {{"QS004", "kquant-group-size", Severity::Error, true, "Summary.", {}}};
  CHECK(render_rules_table(rules, Style{}) == "code   name               severity  fix  summary\n"
                                              "QS004  kquant-group-size  error     yes  Summary.\n");
  CHECK(rules_json(rules)["rules"][0]["code"] == "QS004");
}
