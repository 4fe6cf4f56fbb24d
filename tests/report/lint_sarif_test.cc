#include <catch2/catch.hpp>

#include "lint/lint_support.h"
#include "support/json_schema.h"
#include "qsel/lint/registry.h"
#include "qsel/report/lint_report.h"

using namespace qsel;
using nlohmann::json;

namespace {

// Errors of `doc` against the vendored SARIF 2.1.0 schema (tests/fixtures/sarif-schema-2.1.0.json,
// oasis-tcs/sarif-spec Schemata/sarif-schema-2.1.0.json).
std::vector<std::string> sarif_errors(const json& doc) {
  return test::json_schema_errors(test::source_dir() + "/tests/fixtures/sarif-schema-2.1.0.json", doc);
}

json seed_state_sarif() {
  LintReport r = test::lint_all(test::source_dir() + "/tests/fixtures/seed-state");
  return json::parse(lint_sarif(r, test::source_dir(), "0.1.0").dump());
}

}  // namespace

TEST_CASE("lint_sarif: the seed-state log validates against the SARIF 2.1.0 schema", "[report][lint][sarif]") {
  json log = seed_state_sarif();
  CHECK(sarif_errors(log).empty());
  json broken = log;
  broken["runs"][0]["results"][0]["level"] = "fatal";
  CHECK_FALSE(sarif_errors(broken).empty());  // the validation is real
}

TEST_CASE("lint_sarif: rules and results as GitHub code scanning reads them", "[report][lint][sarif]") {
  json log = seed_state_sarif();
  CHECK(log["version"] == "2.1.0");
  const json& run = log["runs"][0];
  CHECK(run["tool"]["driver"]["name"] == "qsel");
  REQUIRE(run["tool"]["driver"]["rules"].size() == rules().size());
  const json& rule = run["tool"]["driver"]["rules"][3];
  CHECK(rule["id"] == "QS004");
  CHECK(rule["name"] == "kquant-group-size");
  for (const char* k : {"shortDescription", "fullDescription"}) CHECK(!rule[k]["text"].get<std::string>().empty());
  CHECK(rule["help"]["markdown"].get<std::string>().rfind("# QS004 kquant-group-size", 0) == 0);
  CHECK(!rule["help"]["text"].get<std::string>().empty());
  const json& res = run["results"][0];
  CHECK(res["ruleId"] == "QS003");
  CHECK(run["tool"]["driver"]["rules"][res["ruleIndex"].get<int>()]["id"] == "QS003");
  CHECK(res["level"] == "error");
  CHECK(res["message"]["text"] == "format_id \"mlx-quantized-4bit\" names no record; did you mean \"mlx-affine-4bit\"?");
  const json& loc = res["locations"][0]["physicalLocation"];
  CHECK(loc["artifactLocation"]["uri"] == "tests/fixtures/seed-state/benchmarks/bench-mlx-4bit-m3-max-llama.yaml");
  CHECK(loc["artifactLocation"]["uriBaseId"] == "%SRCROOT%");
  CHECK(loc["region"]["startLine"] == 4);
  CHECK(loc["region"]["startColumn"] == 12);
  CHECK(run["results"].size() == 19);  // the seed state's 15, QS041 and three QS043
}

TEST_CASE("lint_sarif: URIs are percent-encoded and findings without a line have no region", "[report][lint][sarif]") {
  LintReport r;
  r.findings = {{"QS010", "file-too-large", Severity::Error, "/repo/data/formats/a b%.yaml", {}, "", "big", {}}};
  json log = json::parse(lint_sarif(r, "/repo", "0.1.0").dump());
  const json& loc = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"];
  CHECK(loc["artifactLocation"]["uri"] == "data/formats/a%20b%25.yaml");
  CHECK_FALSE(loc.contains("region"));
  CHECK(log["runs"][0]["originalUriBaseIds"]["%SRCROOT%"]["uri"] == "file:///repo/");
  CHECK(sarif_errors(log).empty());
}
