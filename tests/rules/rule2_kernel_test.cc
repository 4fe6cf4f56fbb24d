#include <algorithm>

#include <catch2/catch.hpp>

#include "support/queries.h"
#include "support/rules_mini.h"

using namespace qsel;
using namespace qsel::test;

namespace {
Deliberation run_rule2(const Query& q) { return run_units(q, {apply_rule1, apply_rule2}); }
}  // namespace

TEST_CASE("rule2: the first matching kernel_selection entry names the kernel", "[rules][rule-2]") {
  auto hop = run_rule2(mini_query("gpu-hop"));
  REQUIRE(find(hop, "f-w4"));
  CHECK(find(hop, "f-w4")->kernel->id == "k-hop");
  CHECK(find(hop, "f-w4")->path == "dequant");
  auto amp = run_rule2(mini_query("gpu-amp"));
  CHECK(find(amp, "f-w4")->kernel->id == "k-amp");
}

TEST_CASE("rule2: a W4A4 format on a part without FP4 is emulated, and warned", "[rules][rule-2]") {
  auto d = run_rule2(mini_query("gpu-amp"));
  const Candidate* c = find(d, "f-fp4");
  REQUIRE(c);
  CHECK(c->kernel->id == "k-amp");
  CHECK(c->path == "emulated");
  REQUIRE(!c->warnings.empty());
  CHECK(c->warnings[0].message == "f-fp4 is served as weight-only through k-amp: memory saving, no compute speedup");
}

TEST_CASE("rule2: native where the kernel is native and the target has the precision", "[rules][rule-2]") {
  auto d = run_rule2(mini_query("gpu-bw"));
  const Candidate* c = find(d, "f-fp4");
  REQUIRE(c);
  CHECK(c->kernel->id == "k-fp4");  // the entry needing an unknown flag is passed over
  CHECK(c->path == "native");
  CHECK(!c->contested());
}

TEST_CASE("rule2: a kernel record that excludes the pair makes a native claim contested", "[rules][rule-2]") {
  auto d = run_rule2(mini_query("gpu-bwc"));
  const Candidate* c = find(d, "f-fp4");
  REQUIRE(c);
  CHECK(c->path == "native");
  REQUIRE(c->conflicts.size() == 1);
  CHECK(c->conflicts[0] == "k-compat says f-fp4 does not run on t-bwc: datacenter kernels do not run on the consumer part");
  CHECK(has(c->evidence, "k-compat"));
}

TEST_CASE("rule2: no entry for the target excludes the candidate", "[rules][rule-2]") {
  Query q = mini_query("gpu-hop");
  q.engines = {"eng-a"};
  auto d = run_rule2(q);
  // f-fp8 on Hopper: matrix Y, kernel k-fp8 (min_cc 8.9) — kept; f-w4g64 has no matrix column and k-hop.
  CHECK(find(d, "f-fp8")->kernel->id == "k-fp8");
  Query amp = mini_query("gpu-amp");
  amp.engines = {"eng-b"};
  auto none = run_rule2(amp);
  CHECK(find(none, "f-w4", "eng-b")->kernel->id == "k-amp");
}

TEST_CASE("rule2: matching gotchas are attached, conditional ones name their condition", "[rules][rule-2]") {
  auto d = run_rule2(mini_query("gpu-amp"));
  const Candidate* c = find(d, "f-fp4");
  auto it = std::find_if(c->warnings.begin(), c->warnings.end(), [](const Warning& w) { return w.id == "g-fp4-bf16"; });
  REQUIRE(it != c->warnings.end());
  CHECK(it->severity == "blocker");
  CHECK(it->condition == "dtype=bfloat16");
  auto hop = run_rule2(mini_query("gpu-hop"));
  const Candidate* w4 = find(hop, "f-w4");
  CHECK(std::any_of(w4->warnings.begin(), w4->warnings.end(), [](const Warning& w) { return w.id == "g-khop"; }));
}

TEST_CASE("rule2: post-deploy checks name the log line and the engine's checks", "[rules][rule-2]") {
  auto d = run_rule2(mini_query("gpu-hop"));
  const Candidate* w4 = find(d, "f-w4");
  REQUIRE(w4->checks.size() == 2);
  CHECK(w4->checks[0] == "grep the eng-a startup log for \"Using KHop for\" — it names the kernel that runs [k-hop]");
  CHECK(w4->checks[1] == "read the log — `Using` [eng-a]");
}

TEST_CASE("rule2: a general exclusion does not contest a kernel compiled for the target", "[rules][rule-2]") {
  Query q = mini_query("gpu-bwc");
  q.engines = {"eng-c"};
  auto d = run_rule2(q);
  const Candidate* c = find(d, "f-fp4", "eng-c");
  REQUIRE(c);
  CHECK(c->kernel->id == "k-fp4b");
  CHECK(c->path == "native");
  CHECK(!c->contested());
  CHECK(mentions(c->why, "k-compat says f-fp4 does not run on t-bwc, but k-fp4b ships a t-bwc build"));
}

TEST_CASE("rule2: docs that deny support contest the candidate, docs that name another kernel only say so", "[rules][rule-2]") {
  Query q = mini_query("gpu-amp");
  q.engines = {"eng-c"};
  auto d = run_rule2(q);
  const Candidate* support = find(d, "f-w4", "eng-c");
  REQUIRE(support);
  REQUIRE(support->conflicts.size() == 1);
  CHECK(support->conflicts[0] == "eng-c: the docs table says no [eng-c docs @ v1] — yet eng-c picks k-amp [eng-c code @ abc123]");
  const Candidate* kernel = find(d, "f-w4g64", "eng-c");
  REQUIRE(kernel);
  CHECK(!kernel->contested());
  CHECK(mentions(kernel->why, "which kernel runs is disputed: eng-c: the docs name another kernel"));
}

// Blind audit 19 #6, #9: vLLM refuses float16 for Gemma 2/3; on a part without bfloat16, or through a kernel that takes
// float16 activations alone (the ROCm Triton AWQ path), the model does not load.
TEST_CASE("rule2: an engine that refuses float16 for the model leaves out paths that would run it in float16", "[rules][rule2]") {
  auto turing = test::ask_corpus("rtx-2080-ti", "gemma-2-9b", {"vllm"});
  CHECK(turing.candidates.empty());
  CHECK(std::any_of(turing.excluded.begin(), turing.excluded.end(),
                    [](const Exclusion& e) { return e.reason.find("refuses float16 for Gemma2ForCausalLM") != std::string::npos; }));
  auto rocm = test::ask_corpus("rx-7900-xtx", "gemma-3-27b", {"vllm"});
  CHECK(std::none_of(rocm.candidates.begin(), rocm.candidates.end(), [](const Candidate& c) { return c.format->id == "awq"; }));
  CHECK(std::any_of(rocm.excluded.begin(), rocm.excluded.end(),
                    [](const Exclusion& e) { return e.format == "awq" && e.reason.find("takes float16 activations alone") != std::string::npos; }));
  // Ampere has bfloat16 and Marlin takes it: AWQ runs.
  auto ampere = test::ask_corpus("rtx-3090", "gemma-3-27b", {"vllm"});
  CHECK(std::any_of(ampere.candidates.begin(), ampere.candidates.end(), [](const Candidate& c) { return c.format->id == "awq"; }));
  // An architecture vLLM runs in float16 keeps its paths on Turing.
  auto llama = test::ask_corpus("rtx-2080-ti", "llama-3.1-8b", {"vllm"});
  CHECK_FALSE(llama.candidates.empty());
}
