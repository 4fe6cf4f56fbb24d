#include <catch2/catch.hpp>

#include "support/rules_mini.h"

using namespace qsel;
using namespace qsel::test;

namespace {
Deliberation run_rule4(const Query& q) { return run_units(q, {apply_rule1, apply_rule2, apply_rule4}); }
}  // namespace

TEST_CASE("rule4: W4A16 names the group size, the kernel and its numerical equivalents", "[rules][rule-4]") {
  auto d = run_rule4(mini_query("gpu-hop"));
  const Candidate* c = find(d, "f-w4");
  REQUIRE(c);
  CHECK(c->why.back() == "Rule 4 — W4A16 at group 128 is the scheme; eng-a picks k-hop; numerically equivalent to k-amp, "
                         "so its quality figures apply");
  CHECK(has(c->evidence, "k-amp"));
}

TEST_CASE("rule4: another group size is flagged for quality and kernel eligibility", "[rules][rule-4]") {
  auto d = run_rule4(mini_query("gpu-hop"));
  const Candidate* c = find(d, "f-w4g64");
  REQUIRE(c);
  REQUIRE(!c->warnings.empty());
  CHECK(c->warnings.back().message == "group size 64 is not the 128 default: quality and kernel eligibility both change");
}

TEST_CASE("rule4: GGUF is Rule 5's, not Rule 4's", "[rules][rule-4]") {
  auto d = run_rule4(mini_query("gpu-hop"));
  CHECK(!has(find(d, "f-gguf")->rules, "rule-4"));
}
