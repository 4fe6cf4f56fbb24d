#include <catch2/catch.hpp>

#include <algorithm>

#include "qsel/graph/embedded_graph.h"
#include "qsel/rules/rules.h"
#include "support/queries.h"

#include "support/rules_mini.h"

using namespace qsel;
using namespace qsel::test;

namespace {
Deliberation run_rule6(const Query& q) { return run_units(q, {apply_rule1, apply_rule2, compute_memory, apply_rule6}); }
}  // namespace

TEST_CASE("rule6: when the 16-bit cache does not fit, 8-bit KV is offered with an unmeasured delta", "[rules][rule-6]") {
  Query q = mini_query("gpu-hop-small");  // 8 GB x 0.9
  q.context = 300000;                      // weights 5.45 GB; 16-bit KV 2.4 GB > 1.75 free; 8-bit 1.2 GB fits
  auto d = run_rule6(q);
  const Candidate* c = find(d, "f-w4");
  REQUIRE(c);
  REQUIRE(c->memory);
  CHECK(c->memory->fits);
  CHECK(c->memory->kv_dtype == "f-kv8");
  CHECK(has(c->rules, "rule-6"));
  CHECK(c->warnings.back().message == "8-bit KV cache (f-kv8) halves the cache at an accuracy delta no controlled benchmark has measured");
}

TEST_CASE("rule6: never with sliding-window attention plus speculative decoding", "[rules][rule-6]") {
  Query q = mini_query("gpu-hop-small", "m-sw");
  q.context = 500000;
  q.spec_decode = "draft";
  auto d = run_rule6(q);
  const Candidate* c = find(d, "f-w4");
  REQUIRE(c);
  CHECK(!c->memory->fits);
  CHECK(c->memory->kv_dtype == "bf16");
  CHECK(c->why.back() == "Rule 6 — an 8-bit KV cache would fit, but never with sliding-window attention and speculative decoding [g-kv-sw]");
}

TEST_CASE("rule6: an explicit 8-bit KV cache is warned on every candidate", "[rules][rule-6]") {
  Query q = mini_query("gpu-hop");
  q.kv_cache = "fp8";
  auto d = run_rule6(q);
  const Candidate* c = find(d, "f-w4");
  CHECK(c->memory->kv_dtype == "f-kv8");  // named by the format record its command line selects
  CHECK(c->warnings.back().message.find("8-bit KV cache (f-kv8)") == 0);
}

// Blind audit 6 #2: Qwen's AWQ of Qwen3-32B at 16K on one RTX 4090 fits with a 16-bit cache only when vLLM's memory
// fraction is raised to 0.95, which leaves almost nothing (and takes the desktop's share); with the FP8 cache it fits at
// vLLM's own 0.9. Rule 6 takes the 8-bit cache then, and the command carries it instead of the raised fraction.
TEST_CASE("rule 6: a 16-bit fit that needs the engine's memory fraction raised takes the 8-bit cache that fits without", "[rules][rule6]") {
  Query q = test::corpus_query("rtx-4090", "qwen3-32b", {"vllm"});
  q.context = 16384;
  q.formats = {"awq"};
  Deliberation d = deliberate(embedded_graph(), q);
  REQUIRE(!d.candidates.empty());
  const Candidate& c = d.candidates.front();
  REQUIRE(c.memory);
  CHECK(c.memory->kv_dtype == "fp8-kv");
  CHECK_FALSE(c.memory->fraction_raised);
  CHECK(c.memory->budget.fraction == 0.9);
  CHECK(std::find(c.rules.begin(), c.rules.end(), "rule-6") != c.rules.end());
}

// Blind audit 20 #24: Command-R v01 has 64 KV heads (no grouped-query attention); at 64k neither its 16-bit nor its
// 8-bit cache leaves room on 2 x 24 GB, and ExLlamaV2's Q4 cache does.
TEST_CASE("rule6: where even the 8-bit cache leaves nothing that fits, the engine's 4-bit cache is offered", "[rules][rule6]") {
  const Graph& g = embedded_graph();
  Query q = test::corpus_query("rtx-3090", "command-r-35b", {"exllamav2"});
  q.count = 2;
  q.context = 65536;
  Deliberation d = deliberate(g, q);
  REQUIRE_FALSE(d.candidates.empty());
  const Candidate& top = d.candidates.front();
  REQUIRE(top.memory);
  CHECK(top.memory->fits);
  CHECK(top.memory->kv_dtype == "exl2-kv-q4");
  CHECK(std::any_of(top.why.begin(), top.why.end(), [](const std::string& w) { return w.find("neither the 16-bit nor the 8-bit") != std::string::npos; }));
  // At 8k the Q8 cache (or none) does: the 4-bit one is not reached for.
  q.context = 8192;
  Deliberation short_ctx = deliberate(g, q);
  for (const Candidate& c : short_ctx.candidates)
    if (c.memory) CHECK(c.memory->kv_dtype != "exl2-kv-q4");
}

// Blind audit 26 #3: a 14B at 32k on an 11 GB card kept 18 of 48 layers in RAM for the sake of a 16-bit cache. With part of
// the model in RAM either way, the 8-bit cache is taken when it keeps enough more on the GPU to decode a quarter faster.
TEST_CASE("rule6: an offload plan takes the 8-bit cache when it keeps more of the model on the GPU", "[rules][rule6]") {
  const Graph& g = embedded_graph();
  Query q = test::corpus_query("rtx-2080-ti", "qwen2.5-coder-14b", {"llama-cpp"});
  q.context = 32768;
  Deliberation d = deliberate(g, q);
  REQUIRE_FALSE(d.candidates.empty());
  int offloaded_with_kv8 = 0;
  for (const Candidate& c : d.candidates) {
    if (!c.memory || !c.memory->placement || c.memory->kv_dtype != "gguf-kv-q8-0") continue;
    ++offloaded_with_kv8;
    CHECK(std::any_of(c.why.begin(), c.why.end(), [](const std::string& w) { return w.find("more of it stays on the GPU") != std::string::npos; }));
  }
  CHECK(offloaded_with_kv8 > 0);
  const Candidate& top = d.candidates.front();
  REQUIRE(top.memory);
  CHECK(top.memory->kv_dtype == "gguf-kv-q8-0");
  CHECK(top.memory->bpw >= 4.0);  // a 4-bit K-quant or better, not a 3-bit type kept whole on the GPU
  // At 8k the 16-bit cache fits beside the model: no 8-bit cache is reached for.
  q.context = 8192;
  Deliberation short_ctx = deliberate(g, q);
  REQUIRE_FALSE(short_ctx.candidates.empty());
  CHECK(short_ctx.candidates.front().memory->kv_dtype != "gguf-kv-q8-0");
}
