#include <catch2/catch.hpp>

#include "qsel/report/lint_report.h"

using namespace qsel;

namespace {

LintReport sample() {
  LintReport r;
  r.findings = {{"QS004", "kquant-group-size", Severity::Error, "data/formats/q.yaml", {9, 20}, "q", "weight_group_size 256 is the Q4_K super-block; its scale group is 32", {}},
                {"QS010", "file-too-large", Severity::Warning, "data/formats/big.yaml", {}, "", "file is big", {}}};
  r.files = 2;
  r.records = 1;
  return r;
}

}  // namespace

TEST_CASE("lint_text: one line per finding, the summary last", "[report][lint]") {
  CHECK(render_lint_text(sample(), Style{}) ==
        "data/formats/q.yaml:9:20: error: weight_group_size 256 is the Q4_K super-block; its scale group is 32 [QS004 kquant-group-size]\n"
        "data/formats/big.yaml: warning: file is big [QS010 file-too-large]\n"
        "1 error, 1 warning in 1 record (2 files)\n");
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
  CHECK(render_lint_text(sample(), Style{}).find('\x1b') == std::string::npos);
}

TEST_CASE("lint_text: the rule table lists every rule", "[report][lint]") {
  std::vector<RuleInfo> rules = {{"QS004", "kquant-group-size", Severity::Error, true, "Summary.", {}}};
  CHECK(render_rules_table(rules, Style{}) == "code   name               severity  fix  summary\n"
                                              "QS004  kquant-group-size  error     yes  Summary.\n");
  CHECK(rules_json(rules)["rules"][0]["code"] == "QS004");
}
