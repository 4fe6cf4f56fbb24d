#include <catch2/catch.hpp>

#include "lint/lint_support.h"
#include "qsel/report/lint_report.h"

using namespace qsel;

TEST_CASE("lint_pylint: path:line: [CODE] message, as ruff's pylint format", "[report][lint][pylint]") {
  LintReport r;
  r.findings = {{"QS004", "kquant-group-size", Severity::Error, "/repo/data/formats/q.yaml", {9, 20}, "q", "weight_group_size 256", {}},
                {"QS010", "file-too-large", Severity::Error, "/repo/data/formats/big.yaml", {}, "", "file is too large", {}},
                {"QS005", "contested-bpw", Severity::Warning, "/repo/data/formats/r.yaml", {3, 6}, "r", "bpw\n\x1b[31mx", {}}};
  CHECK(render_lint_pylint(r, "/repo") ==
        "data/formats/q.yaml:9: [QS004] weight_group_size 256\n"
        "data/formats/big.yaml:1: [QS010] file is too large\n"  // no line: line 1, as ruff's fallback
        "data/formats/r.yaml:3: [QS005] bpw\\n\\x1b[31mx\n");  // one line per finding, no escape sequence
  CHECK(render_lint_pylint(LintReport{}, "/repo").empty());
}
