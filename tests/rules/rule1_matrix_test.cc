#include <algorithm>

#include <catch2/catch.hpp>

#include "qsel/rules/rule_support.h"
#include "support/queries.h"
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

// An engine's per-model table (TensorRT-LLM's "Model Supported Matrix", axis: model) restricts
// formats for the models it names, on every part; a "." a same-tier source contests is kept, contested.
TEST_CASE("rule1: a per-model table's '.' excludes the format for that model, citing the table", "[rules][rule-1]") {
  auto llama = ask_corpus("b200", "llama-3.1-70b", {"trtllm"});
  const Exclusion* mx = excluded(llama, "mxfp4", "rule-1");
  REQUIRE(mx);
  CHECK(mx->reason == "trtllm-model-quant-matrix marks MXFP4 \".\" on LLaMA and LLaMA 3 (its per-model table)");
  CHECK(!find(llama, "mxfp4", "trtllm"));
  auto oss = ask_corpus("b200", "gpt-oss-120b", {"trtllm"});
  CHECK(excluded(oss, "nvfp4", "rule-1"));
  const Candidate* moe = find(oss, "mxfp4-moe", "trtllm");
  REQUIRE(moe);
  CHECK(std::any_of(moe->why.begin(), moe->why.end(),
                    [](const std::string& w) { return w.find("trtllm-model-quant-matrix marks MXFP4 Y for GPT-OSS") != std::string::npos; }));
}

TEST_CASE("rule1: a per-model '.' that a same-tier source contests keeps the candidate, contested, both cited", "[rules][rule-1]") {
  // The table marks W4A8 AWQ "." for DeepSeek-R1; TensorRT-LLM's DeepSeek README documents W4A8 on Hopper.
  auto d = ask_corpus("h200", "deepseek-r1", {"trtllm"});
  const Candidate* w4a8 = find(d, "w4a8-fp8", "trtllm");
  REQUIRE(w4a8);
  CHECK(w4a8->contested());
  CHECK(w4a8->conflicts[0].find("marks W4A8 AWQ \".\" on DeepSeek-R1 (its per-model table); contested:") != std::string::npos);
  CHECK(w4a8->conflicts[0].find("deepseek_v3/README.md") != std::string::npos);
  // AWQ W4A16 has no such source: the table rules it out for DeepSeek.
  CHECK(excluded(d, "awq", "rule-1"));
  // Every row naming the model counts: "LLaMA" gives Llama 3.3 the NVFP4 that "LLaMA 3" alone would refuse.
  auto llama = ask_corpus("b200", "llama-3.3-70b", {"trtllm"});
  const Candidate* fp4 = find(llama, "nvfp4", "trtllm");
  REQUIRE(fp4);
  CHECK_FALSE(fp4->contested());
  // Same tier: the candidate's conflict stands.
  CHECK(w4a8->disputed());
}

// Blind audit 33 #49: the table marks Qwen-3's FP8 (block scaling) "."; TensorRT-LLM's loader (engine code) reads any
// block-FP8 checkpoint. Code outranks the docs table: the conflict is kept and shown, the verdict is the code's.
TEST_CASE("rule1: a per-model '.' that the engine's code contests is outranked: shown, not standing", "[rules][rule-1]") {
  auto d = ask_corpus("b200", "qwen3-235b-a22b", {"trtllm"});
  const Candidate* block = find(d, "fp8-blockwise", "trtllm");
  REQUIRE(block);
  CHECK(block->contested());
  CHECK(block->outranked_only());
  CHECK_FALSE(block->disputed());
  CHECK(block->conflicts[0].find("load_hf_quant_config") != std::string::npos);
}

TEST_CASE("rule1: a model the per-model table does not name is not restricted by it", "[rules][rule-1]") {
  auto d = ask_corpus("b200", "glm-4.5-air", {"trtllm"});
  for (const auto& e : d.excluded) CHECK(e.reason.find("per-model table") == std::string::npos);
  // ... and a per-model table says nothing about a part: the hardware reading is unchanged.
  const Record* m = d.graph.find("trtllm-model-quant-matrix");
  REQUIRE(m);
  CHECK(rule_util::covering_row(*m, *d.query.target) == nullptr);
}
