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

// Issue 26: a baseline is a stranger's file too (.qsel.yaml's baseline: loads it by itself).
TEST_CASE("baseline: wrong field types are located errors (not an internal type_error.302), and the version is the integer 1", "[lint][baseline]") {
  TempDir d;
  auto error_of = [&](const std::string& name, const std::string& text) {
    auto path = d.write(name, text);
    try {
      Baseline::read(path);
    } catch (const LintInputError& e) {
      return std::string(e.what()).substr(path.generic_string().size());
    }
    return std::string("read");
  };
  CHECK(error_of("types.json", R"({"qsel_baseline": 1, "findings": [{"code": "QS004", "file": 7}]})") ==
        ": /findings/0/file: expected a string, got \"7\"");
  CHECK(error_of("entry.json", R"({"qsel_baseline": 1, "findings": [{"code": "QS004"}, [1]]})") ==
        ": /findings/1: expected an object with code, file, record and message, got \"[1]\"");
  const std::string foreign = ": not a qsel baseline (expected JSON written by `qsel lint --write-baseline`)";
  CHECK(error_of("float.json", R"({"qsel_baseline": 1.5, "findings": []})") == foreign);
  CHECK(error_of("bool.json", R"({"qsel_baseline": true, "findings": []})") == foreign);
  CHECK(error_of("deep.json", std::string(100000, '[')) == ": JSON nested deeper than 64 levels (a qsel baseline expected)");
  CHECK(error_of("ok.json", R"({"qsel_baseline": 1, "findings": [{"code": "QS004"}]})") == "read");
}

TEST_CASE("baseline: a file name that is not UTF-8 round-trips through the baseline", "[lint][baseline]") {
  TempDir d;
  auto file = d.path() / "baseline.json";
  std::string odd = (d.path() / "data/caf\xE9.yaml").string();  // Latin-1 é: not UTF-8
  d.write("baseline.json", baseline_text({finding(odd, 3, "bad \xFF byte")}, file));
  Baseline b = Baseline::read(file);
  CHECK(b.absorb(finding(odd, 3, "bad \xFF byte")));
}
