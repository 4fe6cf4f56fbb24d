// docs/memory.md compares the memory model with published sizes; the figures it
// quotes live in tests/fixtures/memory-comparison.json. This keeps the model within
// 5% of every published weights figure, so the page stays true.
#include <catch2/catch.hpp>

#include <cmath>

#include "support/fixtures.h"

using nlohmann::json;
using qsel::test::run_cli;

TEST_CASE("memory_published: weights stay within 5% of published checkpoint and GGUF sizes", "[rules][memory]") {
  json rows = json::parse(qsel::test::read_text(qsel::test::source_dir() + "/tests/fixtures/memory-comparison.json"));
  int checked = 0;
  for (const auto& row : rows) {
    if (row["kind"] != "weights") continue;
    auto r = run_cli({"recommend", "--gpu", "h100", "--count", "8", "--model", row["model"].get<std::string>(), "--all", "--format", "json"});
    REQUIRE(r.code == 0);
    double qsel = -1;
    json result = json::parse(r.out);
    for (const auto& c : result["candidates"])
      if (c["format"] == row["format"] && c["weights_gb"].is_number()) qsel = c["weights_gb"];
    INFO(row["model"] << " " << row["format"] << " qsel " << qsel << " published " << row["published_gb"]);
    REQUIRE(qsel > 0);
    CHECK(std::fabs(qsel - row["qsel_gb"].get<double>()) < 0.011);  // the page quotes what qsel prints
    CHECK(std::fabs(qsel / row["published_gb"].get<double>() - 1) < 0.05);
    ++checked;
  }
  CHECK(checked >= 12);
}
