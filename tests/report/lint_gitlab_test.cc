#include <catch2/catch.hpp>

#include <set>

#include "lint/lint_support.h"
#include "support/json_schema.h"
#include "qsel/report/lint_report.h"

using namespace qsel;
using nlohmann::json;

namespace {

// Errors of `doc` against tests/fixtures/gitlab-code-quality.schema.json, written from
// GitLab's documented Code Quality format (the schema's description cites it).
std::vector<std::string> gitlab_errors(const json& doc) {
  return test::json_schema_errors(test::source_dir() + "/tests/fixtures/gitlab-code-quality.schema.json", doc);
}

}  // namespace

TEST_CASE("lint_gitlab: the seed-state report validates against GitLab's documented format", "[report][lint][gitlab]") {
  LintReport r = test::lint_all(test::source_dir() + "/tests/fixtures/seed-state");
  json doc = json::parse(lint_gitlab(r, test::source_dir()).dump());
  REQUIRE(doc.size() == r.findings.size());
  CHECK(gitlab_errors(doc).empty());
  std::set<std::string> prints;
  for (const json& issue : doc) prints.insert(issue["fingerprint"].get<std::string>());
  CHECK(prints.size() == doc.size());  // GitLab shows identical fingerprints as one issue
  const json& first = doc[0];
  CHECK(first["check_name"] == "QS003");
  CHECK(first["severity"] == "major");
  CHECK(first["location"]["path"] == "tests/fixtures/seed-state/benchmarks/bench-mlx-4bit-m3-max-llama.yaml");
  CHECK(first["location"]["lines"]["begin"] == 4);
  for (const char* broken : {"severity", "fingerprint", "location"}) {
    json bad = doc;
    if (std::string(broken) == "severity") bad[0]["severity"] = "error";
    else bad[0].erase(broken);
    CHECK_FALSE(gitlab_errors(bad).empty());  // the validation is real
  }
  json absolute = doc;
  absolute[0]["location"]["path"] = "/abs/path.yaml";
  CHECK_FALSE(gitlab_errors(absolute).empty());
}

TEST_CASE("lint_gitlab: exact issues, warnings minor, a file-level finding on line 1", "[report][lint][gitlab]") {
  LintReport r;
  r.findings = {{"QS004", "kquant-group-size", Severity::Error, "/repo/data/formats/q.yaml", {9, 20}, "q", "weight_group_size \"256\"", {}},
                {"QS010", "file-too-large", Severity::Warning, "/repo/data/formats/big.yaml", {}, "", "big", {}},
                {"QS010", "file-too-large", Severity::Warning, "/repo/data/formats/big.yaml", {}, "", "big", {}}};
  json doc = json::parse(lint_gitlab(r, "/repo").dump());
  CHECK(gitlab_errors(doc).empty());
  CHECK(doc[0] == json::parse(R"({"description": "QS004 kquant-group-size: weight_group_size \"256\"", "check_name": "QS004",
      "fingerprint": ")" + finding_fingerprint(r.findings[0], "data/formats/q.yaml", 0) + R"(", "severity": "major",
      "location": {"path": "data/formats/q.yaml", "lines": {"begin": 9}}})"));
  CHECK(doc[1]["severity"] == "minor");
  CHECK(doc[1]["location"]["lines"]["begin"] == 1);
  CHECK(doc[1]["fingerprint"] != doc[2]["fingerprint"]);  // identical findings stay two issues
  CHECK(lint_gitlab(LintReport{}, "/repo").dump() == "[]");
}
