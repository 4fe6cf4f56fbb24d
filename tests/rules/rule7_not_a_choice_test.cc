#include <catch2/catch.hpp>

#include "support/rules_mini.h"

using namespace qsel;
using namespace qsel::test;

TEST_CASE("rule7: training-time and research-only formats are excluded with the reason", "[rules][rule-7]") {
  Query q = mini_query("gpu-hop");
  Deliberation d{mini(), q, {}, {}, {}, {}};
  enumerate_candidates(d);
  REQUIRE(find(d, "f-research"));
  apply_rule7(d);
  CHECK(!find(d, "f-research"));
  const Exclusion* t = excluded(d, "f-tern", "rule-7");
  REQUIRE(t);
  CHECK(t->reason == "a training-time recipe, not a choice for an existing checkpoint (no post-training path keeps its quality)");
  CHECK(t->engine.empty());
  const Exclusion* r = excluded(d, "f-research", "rule-7");
  REQUIRE(r);
  CHECK(r->reason == "research quantization with no deployable silicon or kernel path: cite it for accuracy, not for speed");
}
