// layout_options and tp_accepted (src/rules/layout.cc): the layouts an engine accepts, from its
// own divisibility rules and flags, and how recommend picks between them (compute_memory.cc).
#include <catch2/catch.hpp>

#include "qsel/graph/embedded_graph.h"
#include "qsel/rules/layout.h"
#include "qsel/rules/rules.h"

using namespace qsel;

namespace {

struct Ask {
  ModelSpec model;
  LayoutAsk ask;
};

Ask make(const std::string& engine, const std::string& format, const std::string& gpu, const std::string& model, int count, int nodes = 0) {
  const Graph& g = embedded_graph();
  Ask a{model_from_record(*g.find(model)), {}};
  a.ask = LayoutAsk{g.find(engine), g.find(format), g.find(gpu), &a.model, count, nodes};
  return a;
}

std::vector<Layout> options(Ask& a) {
  a.ask.model = &a.model;
  return layout_options(a.ask);
}

const Candidate* first_of(const Deliberation& d, const std::string& format) {
  for (const auto& c : d.candidates)
    if (c.format->id == format) return &c;
  return nullptr;
}

Deliberation deliberate_on(const std::string& gpu, const std::string& model, int count, std::vector<std::string> engines, int nodes = 0) {
  const Graph& g = embedded_graph();
  Query q;
  q.accelerator = g.find(gpu);
  q.target = g.find(q.accelerator->str("target"));
  q.model = model_from_record(*g.find(model));
  q.count = count;
  q.nodes = nodes;
  q.engines = std::move(engines);
  return deliberate(g, q);
}

}  // namespace

TEST_CASE("layout: block-FP8 MoE whose expert width does not split into 128-wide blocks at TP 8 runs with expert parallelism", "[rules][layout]") {
  auto a = make("vllm", "fp8-blockwise", "l40s", "qwen3-235b-a22b", 8);
  REQUIRE(a.model.expert_ffn == 1536);
  std::string why;
  a.ask.model = &a.model;
  CHECK_FALSE(tp_accepted(a.ask, 8, false, &why));
  CHECK(why.find("1536 / 8 = 192") != std::string::npos);
  CHECK(why.find("128-wide") != std::string::npos);
  CHECK(tp_accepted(a.ask, 8, true));
  CHECK(tp_accepted(a.ask, 4, false));  // 384 = 3 x 128
  auto o = options(a);
  REQUIRE_FALSE(o.empty());
  CHECK(o[0].tp == 8);
  CHECK(o[0].ep);
  CHECK(o[0].flags == "--tensor-parallel-size 8 --enable-expert-parallel");
  REQUIRE_FALSE(o[0].why.empty());
  CHECK(o[0].why[0].find("TP 8 alone fails at load") == 0);
  // The next option without EP is TP 4 (the largest that splits), the other four GPUs idle or as stages.
  REQUIRE(o.size() >= 2);
  CHECK(o[1].tp == 4);
}

TEST_CASE("layout: the block rule is the format's: FP8 per-channel weights split at any TP that divides the heads", "[rules][layout]") {
  auto a = make("vllm", "fp8-rowwise", "l40s", "qwen3-235b-a22b", 8);
  auto o = options(a);
  CHECK(o[0].tp == 8);
  CHECK_FALSE(o[0].ep);
}

TEST_CASE("layout: SGLang's expert-parallel flag carries its size", "[rules][layout]") {
  auto a = make("sglang", "fp8-blockwise", "b200", "qwen3-235b-a22b", 8);
  auto o = options(a);
  CHECK(o[0].flags == "--tp-size 8 --ep-size 8");
}

TEST_CASE("layout: six GPUs and 128 heads with 8 KV heads: TP 4 with two idle, or TP 2 x PP 3 using all six", "[rules][layout]") {
  auto a = make("vllm", "int8-w8a8", "a100-80gb-sxm4", "llama-3.1-405b", 6);
  auto o = options(a);
  REQUIRE(o.size() == 2);
  CHECK(o[0].tp == 4);
  CHECK(o[0].idle == 2);
  CHECK(o[1].tp == 2);
  CHECK(o[1].pp == 3);
  CHECK(o[1].flags == "--tensor-parallel-size 2 --pipeline-parallel-size 3");
  CHECK(o[0].why[0].find("TP 6 fails at load: vllm needs the TP size to divide the 128 attention heads") == 0);
}

TEST_CASE("layout: 64 GPUs are eight nodes: a replica per node first, never 64-way tensor parallelism", "[rules][layout]") {
  auto a = make("vllm", "fp8-rowwise", "h100-sxm", "llama-3.1-405b", 64);
  auto o = options(a);
  for (const auto& l : o) CHECK(l.tp <= 8);
  CHECK(o[0].tp == 8);
  CHECK(o[0].dp == 8);
  // Replicas that more than one host holds are separate launches, one per node: no data-parallel flag on the line.
  CHECK(o[0].flags == "--tensor-parallel-size 8");
  bool two_nodes = false;
  for (const auto& l : o) two_nodes = two_nodes || (l.tp == 8 && l.pp == 2 && l.dp == 4);
  CHECK(two_nodes);
}

TEST_CASE("layout: --nodes sets the GPUs per node", "[rules][layout]") {
  auto a = make("vllm", "fp8-rowwise", "h100-sxm", "llama-3.1-405b", 8, 2);
  auto o = options(a);
  CHECK(o[0].tp == 4);
  CHECK(o[0].per_node == 4);
  CHECK(o[0].dp == 2);
}

TEST_CASE("layout: an engine without tensor parallelism splits layers within a node", "[rules][layout]") {
  auto a = make("llama-cpp", "gguf-q4-k-m", "rtx-3090", "llama-3.1-70b", 2);
  auto o = options(a);
  REQUIRE(o.size() == 1);
  CHECK(o[0].layer_split);
  CHECK(o[0].gpus() == 2);
  CHECK(o[0].flags.empty());
}

TEST_CASE("layout: KV heads are replicated when the TP size outnumbers them", "[rules][layout]") {
  const Graph& g = embedded_graph();
  ModelSpec m = model_from_record(*g.find("llama-3.1-70b"));
  CHECK(kv_replication(g.find("vllm"), m, 16) == Approx(2));
  CHECK(kv_replication(g.find("vllm"), m, 8) == Approx(1));
  CHECK(kv_replication(g.find("llama-cpp"), m, 16) == Approx(1));
}

TEST_CASE("layout: recommend runs Qwen3-235B block-FP8 on 8 x L40S in vLLM with expert parallelism, and says why", "[rules][layout]") {
  auto d = deliberate_on("l40s", "qwen3-235b-a22b", 8, {"vllm"});
  const Candidate* c = first_of(d, "fp8-blockwise");
  REQUIRE(c);
  REQUIRE(c->memory);
  CHECK(c->memory->layout.tp == 8);
  CHECK(c->memory->layout.ep);
  bool said = false;
  for (const auto& n : c->memory->notes) said = said || n.find("layout on 8 GPUs: TP 8 + EP (--tensor-parallel-size 8 --enable-expert-parallel)") == 0;
  CHECK(said);
}

TEST_CASE("layout: recommend spreads 405B on 6 x A100 over all six when four cannot hold it", "[rules][layout]") {
  auto d = deliberate_on("a100-80gb-sxm4", "llama-3.1-405b", 6, {"vllm"});
  const Candidate* c = first_of(d, "int8-w8a8");
  REQUIRE(c);
  REQUIRE(c->memory);
  CHECK(c->memory->fits);
  CHECK(c->memory->layout.tp == 2);
  CHECK(c->memory->layout.pp == 3);
  CHECK(c->memory->parts == 6);
}
