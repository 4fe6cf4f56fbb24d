// compute_memory: the decode forecast at a batch. An MoE's step reads the routed experts the
// batch's tokens touch, not k per token: checked against the corpus's published per-user rates of
// DeepSeek-R1 on 8 x H200 (SGLang, concurrency 8 and 64), which the batch-1 calibration never reads.
#include <catch2/catch.hpp>

#include "qsel/graph/embedded_graph.h"
#include "qsel/rules/rules.h"
#include "support/queries.h"

using namespace qsel;

namespace {

double per_sequence(int batch) {
  Query q = test::corpus_query("h200", "deepseek-r1", {"sglang"});
  q.count = 8;
  q.batch = batch;
  q.context = 2048;
  q.formats = {"fp8-blockwise"};
  Deliberation d = deliberate(embedded_graph(), q);
  REQUIRE(!d.candidates.empty());
  REQUIRE(d.candidates.front().memory);
  return d.candidates.front().memory->per_sequence_tok_s;
}

}  // namespace

TEST_CASE("compute_memory: an MoE's per-sequence decode rate falls with the batch as its tokens touch more experts", "[rules][forecast]") {
  double one = per_sequence(1), eight = per_sequence(8), sixty_four = per_sequence(64);
  CHECK(one > eight);
  CHECK(eight > sixty_four);
  // Published: 78.1 tok/s per user at concurrency 8, 28.9 at 64 (speed-sglang-h200-x8-deepseek-r1-0528-*-inferencex).
  CHECK(eight == Approx(78.1).epsilon(0.25));
  CHECK(sixty_four == Approx(28.9).epsilon(0.25));
}
