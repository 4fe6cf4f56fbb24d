#include <catch2/catch.hpp>

#include "support/rules_mini.h"

using namespace qsel;
using namespace qsel::test;

TEST_CASE("candidates: every engine that runs on the target and serves the format, plus each engine's baseline", "[rules]") {
  Query q = mini_query("gpu-hop");
  Deliberation d{mini(), q, {}, {}, {}, {}};
  enumerate_candidates(d);
  CHECK(find(d, "f-w4", "eng-a"));
  CHECK(find(d, "f-w4", "eng-b"));
  CHECK(find(d, "f-base", "eng-a"));
  CHECK(find(d, "f-base", "eng-b"));
  CHECK(!find(d, "f-base", ""));  // the baseline is served by an engine, never by nobody
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

TEST_CASE("candidates: a target no engine runs on gets no candidates and an unknown", "[rules]") {
  Query q = mini_query("gpu-none");
  Deliberation d{mini(), q, {}, {}, {}, {}};
  enumerate_candidates(d);
  CHECK(d.candidates.empty());
  REQUIRE(d.unknowns.size() == 1);
  CHECK(d.unknowns[0] == "no engine record runs on t-other (rocm): the records cannot say how to serve a model there");
}

TEST_CASE("candidates: a part no format record lists still gets what its engines run, and says the lists are silent", "[rules]") {
  Query q = mini_query("gpu-unlisted");
  Deliberation d{mini(), q, {}, {}, {}, {}};
  enumerate_candidates(d);
  CHECK(find(d, "f-w4", "eng-a"));
  CHECK(find(d, "f-base", "eng-b"));
  REQUIRE(d.unknowns.size() == 1);
  CHECK(d.unknowns[0].rfind("no format record lists gpu-unlisted in native_support or emulated_support", 0) == 0);
}
