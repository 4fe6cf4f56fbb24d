#include <catch2/catch.hpp>

#include "qsel/lint/config.h"
#include "qsel/lint/errors.h"
#include "support/fixtures.h"

using namespace qsel;
using qsel::test::TempDir;

TEST_CASE("config: found upward from the linted path", "[lint][config]") {
  TempDir d;
  d.write(".qsel.yaml", "strict: true\n");
  d.write("data/formats/awq.yaml", "id: awq\n");
  auto found = find_config(d.path() / "data/formats/awq.yaml");
  REQUIRE(found);
  CHECK(*found == d.path() / ".qsel.yaml");
  CHECK(find_config(d.path() / "data") == found);
}

TEST_CASE("config: discovery stops at the repository root, so an ancestor's .qsel.yaml cannot silence a checkout", "[lint][config]") {
  TempDir d;
  d.write(".qsel.yaml", "ignore: [QS001, QS002, QS003]\n");  // above the checkout: ignores every rule
  d.write("repo/.git/HEAD", "ref: refs/heads/main\n");
  d.write("repo/data/formats/awq.yaml", "id: awq\n");
  CHECK_FALSE(find_config(d.path() / "repo/data/formats/awq.yaml"));
  d.write("repo/.qsel.yaml", "strict: true\n");
  CHECK(find_config(d.path() / "repo/data") == d.path() / "repo/.qsel.yaml");
  d.write("wt/.git", "gitdir: ../repo/.git/worktrees/wt\n");  // a worktree's .git is a file
  d.write("wt/data/x.yaml", "id: x\n");
  CHECK_FALSE(find_config(d.path() / "wt/data"));
}

TEST_CASE("config: every setting is read", "[lint][config]") {
  TempDir d;
  auto file = d.write(".qsel.yaml", "select: [QS003, kquant-group-size]\nignore: QS005,QS027\nstrict: true\n"
                                    "baseline: ci/baseline.json\nper-file-ignores:\n  \"formats/gguf-*.yaml\": [QS005]\n");
  LintSettings s = read_config(file);
  CHECK(s.select == std::vector<std::string>{"QS003", "QS004"});
  CHECK(s.ignore == std::vector<std::string>{"QS005", "QS027"});
  CHECK(s.strict);
  CHECK(s.baseline == (d.path() / "ci/baseline.json").generic_string());
  REQUIRE(s.per_file_ignores.size() == 1);
  CHECK(s.per_file_ignores[0].pattern == "formats/gguf-*.yaml");
  CHECK(s.per_file_ignores[0].codes == std::vector<std::string>{"QS005"});
  CHECK(s.base_dir == d.path());
}

TEST_CASE("config: mistakes are located errors", "[lint][config]") {
  TempDir d;
  auto check = [&](const std::string& text, const std::string& tail) {
    auto file = d.write("c/.qsel.yaml", text);
    INFO(text);
    CHECK_THROWS_WITH(read_config(file), Catch::Matchers::EndsWith(tail));
  };
  check("selct: [QS004]\n", ".qsel.yaml:1:1: unknown setting \"selct\"; did you mean \"select\"?");
  check("ignore: [QS004, QS0005]\n", ".qsel.yaml:1:9: unknown rule \"QS0005\"; did you mean \"QS005\"?");
  check("strict: yes\n", ".qsel.yaml:1:9: expected true or false");
  check("per-file-ignores: [a]\n", ".qsel.yaml:1:19: expected a mapping of file glob to rule codes");
  check("select: [QS004\n", ".qsel.yaml:2:1: invalid YAML: end of sequence flow not found");
  check("- QS004\n", ".qsel.yaml:1:1: expected a mapping of settings (select, ignore, strict, baseline, per-file-ignores, stale-after)");
  check("stale-after: [12]\n", ".qsel.yaml:1:14: expected a number of months (12) or a duration (12m, 1y, 400d)");
  check("stale-after: 12w\n", ".qsel.yaml:1:14: --stale-after: expected a number of months (12, 12m), years (1y) or days (400d): \"12w\"");
}

TEST_CASE("config: stale-after reads months, years and days within 1 to 600 months", "[lint][config]") {
  CHECK(parse_stale_after("12") == 12);
  CHECK(parse_stale_after("12m") == 12);
  CHECK(parse_stale_after("2y") == 24);
  CHECK(parse_stale_after("400d") == 13);
  for (const char* bad : {"", "m", "0", "-3", "12.5", "1e3", "601", "51y", "10d", "99999999999999999999"})
    CHECK_THROWS_AS(parse_stale_after(bad), LintInputError);
  TempDir d;
  d.write(".qsel.yaml", "stale-after: 1y\n");
  CHECK(read_config(d.path() / ".qsel.yaml").check_options.stale_after_months == 12);
}
