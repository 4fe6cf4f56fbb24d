#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>

#include "lint/lint_support.h"
#include "qsel/report/lint_report.h"

using namespace qsel;
using namespace qsel::test;
namespace fs = std::filesystem;

namespace {

constexpr const char* kXmllint = "/usr/bin/xmllint";

// xmllint's verdict on `xml` against tests/fixtures/junit.xsd: its exit status and output.
// Empty optional when xmllint is not installed (the caller warns and checks structure only).
std::optional<std::pair<int, std::string>> xmllint(const std::string& xml) {
  if (!fs::exists(kXmllint)) return std::nullopt;
  TempDir d;
  fs::path file = d.write("report.xml", xml), log = d.path() / "log.txt";
  std::string cmd = fmt::format("{} --noout --schema {}/tests/fixtures/junit.xsd {} > {} 2>&1", kXmllint, source_dir(),
                                file.string(), log.string());
  int status = std::system(cmd.c_str());
  return std::pair{WEXITSTATUS(status), read_text(log)};
}

void check_valid(const std::string& xml) {
  auto verdict = xmllint(xml);
  if (!verdict) {
    WARN("xmllint is not installed (apt install libxml2-utils): the JUnit XSD check is skipped, the exact output is still checked");
    return;
  }
  INFO(verdict->second);
  CHECK(verdict->first == 0);
}

}  // namespace

TEST_CASE("lint_junit: XML escaping", "[report][lint][junit]") {
  CHECK(xml_escape("a<b>&\"c'\td\x01") == "a&lt;b&gt;&amp;&quot;c&apos;&#9;d\\x01");
}

TEST_CASE("lint_junit: a testsuite per file and a failed testcase per finding, as ruff's", "[report][lint][junit]") {
  LintReport r;
  r.findings = {{"QS004", "kquant-group-size", Severity::Error, "/repo/data/formats/q.yaml", {9, 20}, "q", "weight_group_size <256> & \"x\"", {}},
                {"QS005", "contested-bpw", Severity::Warning, "/repo/data/formats/q.yaml", {3, 6}, "q", "bpw", {}},
                {"QS010", "file-too-large", Severity::Error, "/repo/data/models/big.yaml", {}, "", "too large\n]]>", {}}};
  std::string xml = render_lint_junit(r, "/repo");
  CHECK(xml ==
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<testsuites name=\"qsel\" tests=\"3\" failures=\"3\" errors=\"0\">\n"
        "    <testsuite name=\"data/formats/q.yaml\" tests=\"2\" disabled=\"0\" errors=\"0\" failures=\"2\" package=\"qsel\">\n"
        "        <testcase name=\"qsel.QS004\" classname=\"data/formats/q\" line=\"9\" column=\"20\">\n"
        "            <failure message=\"weight_group_size &lt;256&gt; &amp; &quot;x&quot;\" type=\"error\">line 9, col 20, "
        "weight_group_size &lt;256&gt; &amp; &quot;x&quot;</failure>\n"
        "        </testcase>\n"
        "        <testcase name=\"qsel.QS005\" classname=\"data/formats/q\" line=\"3\" column=\"6\">\n"
        "            <failure message=\"bpw\" type=\"warning\">line 3, col 6, bpw</failure>\n"
        "        </testcase>\n"
        "    </testsuite>\n"
        "    <testsuite name=\"data/models/big.yaml\" tests=\"1\" disabled=\"0\" errors=\"0\" failures=\"1\" package=\"qsel\">\n"
        "        <testcase name=\"qsel.QS010\" classname=\"data/models/big\" line=\"0\" column=\"0\">\n"
        "            <failure message=\"too large\\n]]&gt;\" type=\"error\">line 0, col 0, too large\\n]]&gt;</failure>\n"
        "        </testcase>\n"
        "    </testsuite>\n"
        "</testsuites>\n");
  check_valid(xml);
}

TEST_CASE("lint_junit: no findings is one passing testcase, and the seed state validates", "[report][lint][junit]") {
  std::string empty = render_lint_junit(LintReport{}, "/repo");
  CHECK(empty.find("<testcase name=\"No errors found\" classname=\"qsel\">") != std::string::npos);
  check_valid(empty);
  LintReport seed = lint_all(source_dir() + "/tests/fixtures/seed-state");
  std::string xml = render_lint_junit(seed, source_dir());
  check_valid(xml);
  CHECK(xml.find("failures=\"" + std::to_string(seed.findings.size()) + "\"") != std::string::npos);
  auto verdict = xmllint("<testsuites><testsuite name=\"x\" tests=\"1\" failures=\"0\" errors=\"0\"><bogus/></testsuite></testsuites>");
  if (verdict) CHECK(verdict->first != 0);  // the schema check is real
}
