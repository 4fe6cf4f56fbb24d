#include <catch2/catch.hpp>

#include "rules/mini.h"

using namespace qsel;
using namespace qsel::test;

TEST_CASE("candidates: every engine that runs on the target and serves the format, plus the baseline", "[rules]") {
  Query q = mini_query("gpu-hop");
  Deliberation d{mini(), q, {}, {}, {}, {}};
  enumerate_candidates(d);
  CHECK(find(d, "f-w4", "eng-a"));
  CHECK(find(d, "f-w4", "eng-b"));
  CHECK(find(d, "f-base", ""));
  CHECK(!find(d, "f-kv8"));        // KV-cache formats are Rule 6's, not weight candidates
  CHECK(!find(d, "f-w4g64", "eng-b"));  // eng-b does not serve it
}

TEST_CASE("candidates: --engine and format filters narrow the set", "[rules]") {
  Query q = mini_query("gpu-hop");
  q.engines = {"eng-b"};
  Deliberation d{mini(), q, {}, {}, {}, {}};
  enumerate_candidates(d);
  CHECK(find(d, "f-w4", "eng-b"));
  CHECK(!find(d, "f-w4", "eng-a"));
}

TEST_CASE("candidates: a part no format record lists gets only the baseline and an unknown", "[rules]") {
  Query q = mini_query("gpu-none");
  Deliberation d{mini(), q, {}, {}, {}, {}};
  enumerate_candidates(d);
  REQUIRE(d.candidates.size() == 1);
  CHECK(d.candidates[0].format->id == "f-base");
  REQUIRE(d.unknowns.size() == 1);
  CHECK(d.unknowns[0].find("no format record lists gpu-none") == 0);
}
