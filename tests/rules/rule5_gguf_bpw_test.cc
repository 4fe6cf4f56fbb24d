#include <catch2/catch.hpp>

#include "support/rules_mini.h"

using namespace qsel;
using namespace qsel::test;

namespace {
Deliberation run_rule5(const Query& q) { return run_units(q, {apply_rule1, apply_rule2, compute_memory, apply_rule5}); }
}  // namespace

TEST_CASE("rule5: GGUF is sized on measured bpw and a mixture is not its base type", "[rules][rule-5]") {
  auto d = run_rule5(mini_query("gpu-hop"));
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
  auto d = run_rule5(mini_query("gpu-hop"));
  const Candidate* c = find(d, "f-gguf2");
  REQUIRE(c);
  CHECK(c->memory->bpw == Approx(2.625));
  CHECK(c->memory->bpw_source == "nominal");
}

TEST_CASE("rule5: the sizing lever is the largest bpw whose weights and KV fit, inside the GGUF range", "[rules][rule-5]") {
  // budget 80 GB x 0.9 = 72 GB; KV at 8192 tokens: 10 x 2 x 2 x 100 x 2 B x 8192 = 0.0655 GB; (72 - 0.0655) x 8 / 10 = 57.5
  auto roomy = run_rule5(mini_query("gpu-hop"));
  CHECK(mentions(roomy.notes, "every GGUF type fits in eng-a at this context and batch, up to the 16-bit file (16 bpw): "
                              "no size lever is needed"));
  Query q = mini_query("gpu-hop");
  q.memory_fraction = 0.05;  // 4 GB: (4 - 0.0655) x 8 / 10 = 3.147
  auto d = run_rule5(q);
  CHECK(mentions(d.notes, "the largest GGUF size whose weights and KV cache fit in eng-a is 3.14 bpw: the largest named type at or "
                          "under it is f-gguf2 (2.625 bpw by its block struct)"));
  for (const auto& n : d.notes) CHECK(n.find("--target-bpw") == std::string::npos);  // a pull request's flag, never a command
  CHECK(mentions(d.notes, "[tech-lever]"));
  q.memory_fraction = 0.02;  // 1.6 GB: 1.23 bpw, below the smallest type (2.625)
  auto none = run_rule5(q);
  CHECK(mentions(none.notes, "not even the smallest GGUF type (f-gguf2, 2.625 bpw) fits in eng-a"));
}
