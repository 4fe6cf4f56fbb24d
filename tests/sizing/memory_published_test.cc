// docs/memory.md compares the memory model with published sizes; the figures it
// quotes live in tests/fixtures/memory-comparison.json. Every weights row is
// re-run here: qsel prints what the page quotes, each row is within 5%, and the
// table as a whole keeps a median error of 1% or less.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>

#include "support/fixtures.h"

using nlohmann::json;
using qsel::test::run_cli;

TEST_CASE("memory_published: weights stay within 5% of published checkpoint, GGUF and MLX sizes", "[rules][memory]") {
  json rows = json::parse(qsel::test::read_text(qsel::test::source_dir() + "/tests/fixtures/memory-comparison.json"));
  std::map<std::string, json> answers;  // one recommend per (model, gpu, count)
  std::vector<double> errors;
  for (const auto& row : rows) {
    double quoted_diff = row["diff_pct"];
    errors.push_back(std::fabs(quoted_diff));
    if (row["kind"] != "weights") continue;
    std::string model = row["model"], gpu = row["gpu"], count = std::to_string(row["count"].get<int>());
    std::string key = model + "|" + gpu + "|" + count;
    if (!answers.count(key)) {
      auto r = run_cli({"recommend", "--gpu", gpu, "--count", count, "--model", model, "--all", "--format", "json"});
      REQUIRE((r.code == 0 || r.code == 1));
      answers[key] = json::parse(r.out);
    }
    double qsel = -1;
    for (const auto& c : answers[key]["candidates"])
      if (c["format"] == row["format"] && c["weights_gb"].is_number()) qsel = c["weights_gb"];
    INFO(model << " " << row["format"] << " qsel " << qsel << " published " << row["published_gb"]);
    REQUIRE(qsel > 0);
    CHECK(std::fabs(qsel - row["qsel_gb"].get<double>()) < 0.011);  // the page quotes what qsel prints
    double diff = qsel / row["published_gb"].get<double>() - 1;
    CHECK(std::fabs(diff) < 0.05);
    CHECK(std::fabs(diff * 100 - quoted_diff) < 0.06);
  }
  REQUIRE(errors.size() >= 40);
  std::sort(errors.begin(), errors.end());
  double median = errors.size() % 2 ? errors[errors.size() / 2] : (errors[errors.size() / 2 - 1] + errors[errors.size() / 2]) / 2;
  CHECK(median <= 1.0);
  CHECK(errors.back() <= 5.0);
}
