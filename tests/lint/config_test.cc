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
  check("- QS004\n", ".qsel.yaml:1:1: expected a mapping of settings (select, ignore, strict, baseline, per-file-ignores)");
}
