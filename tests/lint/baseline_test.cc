#include <catch2/catch.hpp>

#include "qsel/lint/baseline.h"
#include "qsel/lint/errors.h"
#include "support/fixtures.h"

using namespace qsel;
using qsel::test::TempDir;

namespace {

Finding finding(const std::string& file, int line, const std::string& message) {
  return {"QS004", "kquant-group-size", Severity::Error, file, {line, 20}, "gguf-q4-k-m", message, {}};
}

}  // namespace

TEST_CASE("baseline: written relative to its folder, matched without line numbers", "[lint][baseline]") {
  TempDir d;
  auto file = d.path() / "ci" / "baseline.json";
  std::filesystem::create_directories(file.parent_path());
  std::string corpus_file = (d.path() / "data/formats/gguf-q4-k-m.yaml").string();
  d.write("ci/baseline.json", baseline_text({finding(corpus_file, 9, "m")}, file));
  CHECK(test::read_text(file) ==
        "{\n  \"qsel_baseline\": 1,\n  \"findings\": [\n    {\n      \"code\": \"QS004\",\n      \"file\": "
        "\"../data/formats/gguf-q4-k-m.yaml\",\n      \"record\": \"gguf-q4-k-m\",\n      \"message\": \"m\"\n    }\n  ]\n}\n");
  Baseline b = Baseline::read(file);
  CHECK_FALSE(b.absorb(finding(corpus_file, 9, "other message")));
  CHECK(b.absorb(finding(corpus_file, 40, "m")));  // the line moved: still the same finding
  CHECK_FALSE(b.absorb(finding(corpus_file, 40, "m")));  // each entry absorbs one finding
}

TEST_CASE("baseline: a missing or foreign file is an input error", "[lint][baseline]") {
  TempDir d;
  CHECK_THROWS_AS(Baseline::read(d.path() / "none.json"), LintInputError);
  auto other = d.write("other.json", "{\"findings\": []}");
  CHECK_THROWS_WITH(Baseline::read(other), Catch::Matchers::EndsWith(
                                              "not a qsel baseline (expected JSON written by `qsel lint --write-baseline`)"));
}
