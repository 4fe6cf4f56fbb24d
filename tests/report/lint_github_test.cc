#include <catch2/catch.hpp>

#include <sstream>

#include "lint/lint_support.h"
#include "qsel/report/lint_report.h"

using namespace qsel;
using namespace qsel::test;

TEST_CASE("lint_github: workflow-command escaping", "[report][lint][github]") {
  CHECK(github_escape_data("100% done\r\nnext::x, y: z") == "100%25 done%0D%0Anext::x, y: z");
  CHECK(github_escape_property("a,b:c%\nd") == "a%2Cb%3Ac%25%0Ad");
}

TEST_CASE("lint_github: one annotation per finding, with location and title", "[report][lint][github]") {
  LintReport r;
  r.findings = {{"QS004", "kquant-group-size", Severity::Error, "/repo/data/formats/q,1.yaml", {9, 20}, "q", "m", {}},
                {"QS005", "contested-bpw", Severity::Warning, "/repo/data/formats/r.yaml", {}, "r", "w", {}}};
  r.files = r.records = 2;
  CHECK(render_lint_github(r, "/repo") ==
        "::error file=data/formats/q%2C1.yaml,line=9,col=20,title=QS004 kquant-group-size::m\n"
        "::warning file=data/formats/r.yaml,title=QS005 contested-bpw::w\n"
        "1 error, 1 warning in 2 records (2 files)\n");
}

TEST_CASE("lint_github: a record value cannot inject a workflow command", "[report][lint][github]") {
  TempDir d;
  d.write("formats/awq.yaml", minimal_record("format", "awq", "\"x\\n::error file=evil::pwned 100%\": 1\n"));
  LintReport r = lint_all(d.path());
  REQUIRE(r.findings.size() == 1);
  CHECK(r.findings[0].message.find('\n') != std::string::npos);  // the raw value does carry a newline
  std::string out = render_lint_github(r, d.path());
  std::istringstream lines(out);
  std::vector<std::string> all;
  for (std::string l; std::getline(lines, l);) all.push_back(l);
  REQUIRE(all.size() == 2);
  CHECK(all[0].rfind("::error file=formats/awq.yaml,line=6,col=1,title=QS001 schema::", 0) == 0);
  CHECK(all[0].find("\\n::error file=evil::pwned 100%25") != std::string::npos);  // shown as \n, never a new line
  CHECK(all[1] == "1 error, 0 warnings in 1 record (1 file)");
}
