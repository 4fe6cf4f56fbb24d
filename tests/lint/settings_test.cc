#include <catch2/catch.hpp>

#include "qsel/lint/errors.h"
#include "qsel/lint/settings.h"

using namespace qsel;

TEST_CASE("settings: rule lists take codes and names, comma-separated and repeated", "[lint][settings]") {
  CHECK(parse_rule_list({"QS004,contested-bpw", " qs003 ", "QS004"}) == std::vector<std::string>{"QS004", "QS005", "QS003"});
  CHECK(parse_rule_list({}).empty());
  CHECK_THROWS_WITH(parse_rule_list({"QS004,kquant-groupsize"}), "unknown rule \"kquant-groupsize\"; did you mean \"kquant-group-size\"?");
  CHECK_THROWS_AS(parse_rule_list({"QS999"}), LintInputError);
}

TEST_CASE("settings: select, ignore and per-file ignores decide what is kept", "[lint][settings]") {
  LintSettings s;
  s.ignore = {"QS005"};
  s.base_dir = "/corpus";
  s.per_file_ignores = {{"formats/gguf-*.yaml", {"QS004"}}, {"awq.yaml", {"QS003"}}};
  auto finding = [](const char* code, const char* file) { return Finding{code, "", Severity::Error, file, {1, 1}, "", "", {}}; };
  CHECK_FALSE(s.keeps(finding("QS005", "/corpus/formats/x.yaml")));
  CHECK_FALSE(s.keeps(finding("QS004", "/corpus/formats/gguf-q4-k-m.yaml")));
  CHECK(s.keeps(finding("QS004", "/corpus/formats/awq.yaml")));
  CHECK_FALSE(s.keeps(finding("QS003", "/corpus/formats/awq.yaml")));  // no '/': matches the file name
  s.select = {"QS003"};
  CHECK_FALSE(s.keeps(finding("QS004", "/corpus/formats/awq.yaml")));
}

TEST_CASE("settings: globs do not cross folders", "[lint][settings]") {
  CHECK(path_matches("formats/*.yaml", "formats/awq.yaml"));
  CHECK_FALSE(path_matches("formats/*.yaml", "formats/sub/awq.yaml"));
  CHECK(path_matches("*.yaml", "formats/awq.yaml"));
  CHECK_FALSE(path_matches("benchmarks/*", "formats/awq.yaml"));
}
