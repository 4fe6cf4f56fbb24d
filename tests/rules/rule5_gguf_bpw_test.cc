#include <catch2/catch.hpp>

#include "rules/mini.h"

using namespace qsel;
using namespace qsel::test;

namespace {
Deliberation run(const Query& q) { return run_units(q, {apply_rule1, apply_rule2, compute_memory, apply_rule5}); }
}  // namespace

TEST_CASE("rule5: GGUF is sized on measured bpw and a mixture is not its base type", "[rules][rule-5]") {
  auto d = run(mini_query("gpu-hop"));
  const Candidate* c = find(d, "f-gguf");
  REQUIRE(c);
  REQUIRE(c->memory);
  CHECK(c->memory->bpw == Approx(4.9));
  CHECK(c->memory->bpw_source == "measured on m-dense");
  CHECK(c->memory->weights_gb == Approx(10 * 4.9 / 8));
  CHECK(c->why.back() == "Rule 5 — sized on 4.90 bpw (measured on m-dense), never by the quant name; a mixture, not its base "
                         "type (Q4_K with tensors promoted to Q6_K); no GGUF type is native anywhere");
  CHECK(has(c->evidence, "tech-lever"));
}

TEST_CASE("rule5: without a measurement the block struct sizes it", "[rules][rule-5]") {
  auto d = run(mini_query("gpu-hop"));
  const Candidate* c = find(d, "f-gguf2");
  REQUIRE(c);
  CHECK(c->memory->bpw == Approx(2.625));
  CHECK(c->memory->bpw_source == "nominal");
}

TEST_CASE("rule5: the sizing lever is the largest bpw whose weights and KV fit", "[rules][rule-5]") {
  auto d = run(mini_query("gpu-hop"));
  // budget 80 GB x 0.9 = 72; KV at 8192 tokens: 10 x 2 x 2 x 100 x 2 B x 8192 = 0.0655 GB; (72 - 0.0655) x 8 / 10
  REQUIRE(!d.notes.empty());
  CHECK(mentions(d.notes, "the largest GGUF size whose weights and KV cache fit is 57.54 bpw"));
  CHECK(mentions(d.notes, "[tech-lever]"));
}
