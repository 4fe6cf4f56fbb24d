// hints: the trade-off lines beside an answer (all on the GPU against part in system RAM) and why the
// objective picks the one it does.
#include <catch2/catch.hpp>

#include <algorithm>

#include "qsel/graph/embedded_graph.h"
#include "qsel/rules/rules.h"
#include "support/queries.h"

using namespace qsel;

namespace {
bool has_line(const Deliberation& d, const std::string& text) {
  return std::any_of(d.tradeoffs.begin(), d.tradeoffs.end(), [&](const std::string& s) { return s.find(text) != std::string::npos; });
}
}  // namespace

TEST_CASE("hints: under --objective speed, a 4-bit plan partly in RAM says it keeps 4 bits where all on the GPU takes fewer",
          "[rules][hints]") {
  // Qwen3-30B-A3B on a 16 GB RX 9070: IQ4_XS needs a few experts in RAM, IQ3_S fits on the GPU (blind audit 38 #19).
  Query q = test::corpus_query("rx-9070", "qwen3-30b-a3b", {"llama-cpp"});
  q.objective = "speed";
  Deliberation d = deliberate(embedded_graph(), q);
  REQUIRE(!d.candidates.empty());
  REQUIRE(d.candidates.front().memory);
  REQUIRE(d.candidates.front().memory->placement);  // the 4-bit plan with experts in RAM is #1
  CHECK(has_line(d, "all on the GPU — "));
  CHECK(has_line(d, "part in system RAM — "));
  CHECK(has_line(d, "objective speed picks system RAM: it keeps 4 bits per weight or more, and all on the GPU takes "));
}

TEST_CASE("hints: under --objective quality the trade-off names the quality bands", "[rules][hints]") {
  Query q = test::corpus_query("rx-9070", "qwen3-30b-a3b", {"llama-cpp"});
  Deliberation d = deliberate(embedded_graph(), q);
  REQUIRE(!d.candidates.empty());
  CHECK(has_line(d, "objective quality picks "));
  CHECK_FALSE(has_line(d, "keeps 4 bits per weight"));
}
