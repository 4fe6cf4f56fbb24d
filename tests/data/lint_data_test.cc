// End to end: the real binary on the real corpus.
#include <catch2/catch.hpp>

#include <regex>
#include <set>

#include "support/fixtures.h"

TEST_CASE("data: qsel lint data/ prints only its summary: the five contested-bpw warnings are in the repository's baseline", "[data][lint]") {
  // .qsel.yaml at the top of the checkout names ci/qsel-baseline.json (issue 28: 31 lines of
  // kept-on-purpose warnings on every run and in the pre-commit hook)
  auto clean = qsel::test::run_binary("lint data/");
  CHECK(clean.code == 0);
  CHECK(clean.err.empty());
  CHECK(std::regex_match(clean.out, std::regex("0 errors, 0 warnings in ([0-9]+) records \\(\\1 files\\); 5 baselined\n")));
  auto strict = qsel::test::run_binary("lint --strict data/");
  CHECK(strict.code == 0);
}

TEST_CASE("data: qsel lint --no-config data/ exits 0 with exactly the five contested-bpw warnings", "[data][lint]") {
  qsel::test::ScopedEnv wide("COLUMNS", "1000");  // what is said, not where lines break
  auto text = qsel::test::run_binary("lint --no-config data/");
  CHECK(text.code == 0);
  CHECK(text.err.empty());
  std::string last = text.out.substr(text.out.rfind('\n', text.out.size() - 2) + 1);
  CHECK(std::regex_match(last, std::regex("0 errors, 5 warnings in ([0-9]+) records \\(\\1 files\\)\n")));

  auto json = qsel::test::run_binary("--format json lint --no-config data/");
  auto doc = nlohmann::json::parse(json.out);
  std::set<std::string> records;
  for (const auto& f : doc["findings"]) {
    CHECK(f["code"] == "QS005");
    CHECK(f["severity"] == "warning");
    CHECK(f["file"] == "data/formats/" + f["record"].get<std::string>() + ".yaml");
    records.insert(f["record"].get<std::string>());
  }
  CHECK(doc["findings"].size() == 5);
  CHECK(records == std::set<std::string>{"gguf-q3-k-m", "gguf-q4-k-m", "gguf-q4-k-s", "gguf-q5-k-m", "gguf-q6-k"});
  CHECK(text.out.find("data/formats/gguf-q4-k-m.yaml:") != std::string::npos);
  CHECK(text.out.find(": warning: bpw is contested: 4.5 (Q4_K block struct) vs 4.89 measured on llama-3.1-8b; both are "
                      "kept on purpose [QS005 contested-bpw]\n") != std::string::npos);
}

TEST_CASE("data: qsel lint with no path lints data/, --strict fails on the warnings", "[data][lint]") {
  CHECK(qsel::test::run_binary("lint --no-config --select QS005 --strict").code == 1);
  CHECK(qsel::test::run_binary("lint --no-config --ignore QS005 --strict").code == 0);
  CHECK(qsel::test::run_binary("lint --select QS005 --strict").code == 0);  // the baseline holds the five
  CHECK(qsel::test::run_binary("lint --no-config --config .qsel.yaml").code == 2);
}
