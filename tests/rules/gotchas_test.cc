#include <catch2/catch.hpp>

#include "qsel/rules/gotchas.h"
#include "support/rules_mini.h"

using namespace qsel;
using namespace qsel::test;

TEST_CASE("gotchas: selectors must all hold, unknown flags make the warning conditional", "[rules][gotchas]") {
  const Graph& g = mini();
  Query q = mini_query("gpu-amp");
  GotchaScope s{g.find("f-fp4"), g.find("t-amp"), g.find("eng-a"), g.find("k-amp"), g.find("gpu-amp")};
  auto w = match_gotcha(g, *g.find("g-fp4-bf16"), s, q);
  REQUIRE(w);
  CHECK(w->condition == "dtype=bfloat16");
  CHECK(w->silent);
  GotchaScope bw{g.find("f-fp4"), g.find("t-bw"), g.find("eng-a"), g.find("k-fp4"), g.find("gpu-bw")};
  CHECK(!match_gotcha(g, *g.find("g-fp4-bf16"), bw, q));  // targets: max_cc 9.9
}

TEST_CASE("gotchas: known flags must be set by the query", "[rules][gotchas]") {
  const Graph& g = mini();
  Query q = mini_query("gpu-hop");
  GotchaScope s{g.find("f-w4"), g.find("t-hop"), g.find("eng-a"), g.find("k-hop"), g.find("gpu-hop")};
  CHECK(!match_gotcha(g, *g.find("g-spec"), s, q));
  q.spec_decode = "mtp";
  CHECK(!match_gotcha(g, *g.find("g-spec"), s, q));
  q.prefix_caching = true;
  auto w = match_gotcha(g, *g.find("g-spec"), s, q);
  REQUIRE(w);
  CHECK(w->condition.empty());
}

TEST_CASE("gotchas: sorted blockers first, silent first, conditional last", "[rules][gotchas]") {
  const Graph& g = mini();
  Query q = mini_query("gpu-hop");
  q.spec_decode = "mtp";
  q.prefix_caching = true;
  GotchaScope s{g.find("f-w4"), g.find("t-hop"), g.find("eng-a"), g.find("k-hop"), g.find("gpu-hop")};
  auto ws = matching_gotchas(g, s, q);
  REQUIRE(ws.size() == 2);
  CHECK(ws[0].id == "g-spec");
  CHECK(ws[1].id == "g-khop");
}
