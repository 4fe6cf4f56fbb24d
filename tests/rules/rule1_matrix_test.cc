#include <catch2/catch.hpp>

#include "support/rules_mini.h"

using namespace qsel;
using namespace qsel::test;

namespace {
Deliberation run_rule1(const Query& q) { return run_units(q, {apply_rule1}); }
}  // namespace

TEST_CASE("rule1: a matrix '.' excludes the candidate, citing the cell", "[rules][rule-1]") {
  Query q = mini_query("gpu-hop");
  auto d = run_rule1(q);
  CHECK(!find(d, "f-fp4"));
  const Exclusion* e = excluded(d, "f-fp4", "rule-1");
  REQUIRE(e);
  CHECK(e->engine == "eng-a");
  CHECK(e->reason == "mat-a marks FP4 \".\" on Hopper");
  const Candidate* w4 = find(d, "f-w4");
  REQUIRE(w4);
  REQUIRE(w4->cells.size() == 1);
  CHECK(w4->cells[0].cell == "Y");
  CHECK(w4->why[0] == "Rule 1 — mat-a marks W4 Y on Hopper");
}

TEST_CASE("rule1: native_support alone never makes a candidate", "[rules][rule-1]") {
  // f-fp8 lists gpu-hop natively but the matrix says '.' on Ampere for it; on Ampere
  // it is not even listed: the matrix alone decides.
  Query q = mini_query("gpu-amp");
  auto d = run_rule1(q);
  CHECK(!find(d, "f-fp8"));
  CHECK(excluded(d, "f-fp8", "rule-1"));
}

TEST_CASE("rule1: a footnote that narrows a cell excludes what it names", "[rules][rule-1]") {
  auto d = run_rule1(mini_query("gpu-amp"));
  const Exclusion* e = excluded(d, "f-mx", "rule-1");
  REQUIRE(e);
  CHECK(e->reason == "mat-a marks MX (no MX on Ampere) \".\" on Ampere");
  CHECK(find(d, "f-fp4"));  // same row, plain Y
}

TEST_CASE("rule1: a matrix that does not cover the target says so and defers to kernel selection", "[rules][rule-1]") {
  auto d = run_rule1(mini_query("gpu-bwc"));
  const Candidate* w4 = find(d, "f-w4");
  REQUIRE(w4);
  CHECK(w4->cells.empty());
  CHECK(w4->why[0] == "Rule 1 — eng-a's matrix does not cover t-bwc: no Blackwell row; deployability read from its kernel selection");
}

TEST_CASE("rule1: a format the matrix has no column for falls back to kernel selection", "[rules][rule-1]") {
  auto d = run_rule1(mini_query("gpu-hop"));
  const Candidate* g = find(d, "f-gguf");
  REQUIRE(g);
  CHECK(g->why[0] == "Rule 1 — eng-a's matrix has no column for f-gguf; deployability read from its kernel selection");
}
