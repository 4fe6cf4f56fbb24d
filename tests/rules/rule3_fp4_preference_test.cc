#include <catch2/catch.hpp>

#include "support/rules_mini.h"

using namespace qsel;
using namespace qsel::test;

namespace {
Deliberation run_rule3(const Query& q) { return run_units(q, {apply_rule1, apply_rule2, apply_rule3}); }
}  // namespace

TEST_CASE("rule3: the preferred format ranks above the other where both run natively", "[rules][rule-3]") {
  auto d = run_rule3(mini_query("gpu-bw"));
  const Candidate* fp4 = find(d, "f-fp4");
  const Candidate* mx = find(d, "f-mx");
  REQUIRE(fp4);
  REQUIRE(mx);
  CHECK(fp4->rank_tier == 0);
  CHECK(mx->rank_tier == 1);
  CHECK(fp4->why.back() == "Rule 3 — ranked above f-mx on risk; the evidence is vendor-claim: lower risk");
  CHECK(mx->why.back() == "Rule 3 — ranked below f-fp4 on risk (vendor-claim evidence); pass --portable to rank it first");
}

TEST_CASE("rule3: --portable puts the portable format first", "[rules][rule-3]") {
  Query q = mini_query("gpu-bw");
  q.portable = true;
  auto d = run_rule3(q);
  CHECK(find(d, "f-fp4")->rank_tier == 1);
  CHECK(find(d, "f-mx")->rank_tier == 0);
}

TEST_CASE("rule3: no preference where the formats are only emulated", "[rules][rule-3]") {
  auto d = run_rule3(mini_query("gpu-amp"));
  REQUIRE(find(d, "f-fp4"));
  CHECK(find(d, "f-fp4")->rank_tier == 0);
  CHECK(!has(find(d, "f-fp4")->rules, "rule-3"));
}
