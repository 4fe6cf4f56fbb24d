#include <catch2/catch.hpp>

#include "lint/lint_support.h"
#include "qsel/report/lint_report.h"

using namespace qsel;

TEST_CASE("lint_azure: escaping as the Azure Pipelines agent unescapes", "[report][lint][azure]") {
  CHECK(azure_escape("100%; a]b\r\nc") == "100%AZP25%3B a%5Db%0D%0Ac");
  CHECK(azure_escape("plain text, with: colons") == "plain text, with: colons");
  CHECK(azure_escape_data("100%; a]b\r\nc") == "100%AZP25; a]b%0D%0Ac");
}

TEST_CASE("lint_azure: one task.logissue per finding, as ruff's azure format", "[report][lint][azure]") {
  LintReport r;
  r.findings = {{"QS004", "kquant-group-size", Severity::Error, "/repo/data/formats/q;1].yaml", {9, 20}, "q", "weight_group_size 256", {}},
                {"QS005", "contested-bpw", Severity::Warning, "/repo/data/formats/r.yaml", {3, 6}, "r", "bpw 4.5 ]; 100%", {}},
                {"QS010", "file-too-large", Severity::Error, "/repo/data/formats/big.yaml", {}, "", "too large\n##vso[task.complete result=Succeeded;]", {}}};
  CHECK(render_lint_azure(r, "/repo") ==
        "##vso[task.logissue type=error;sourcepath=data/formats/q%3B1%5D.yaml;linenumber=9;columnnumber=20;code=QS004;]weight_group_size 256\n"
        "##vso[task.logissue type=warning;sourcepath=data/formats/r.yaml;linenumber=3;columnnumber=6;code=QS005;]bpw 4.5 ]; 100%AZP25\n"
        "##vso[task.logissue type=error;sourcepath=data/formats/big.yaml;code=QS010;]too large\\n##vso[task.complete result=Succeeded;]\n");
}
