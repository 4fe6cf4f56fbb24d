#include <catch2/catch.hpp>

#include <algorithm>
#include <sstream>

#include "qsel/core/units.h"
#include "qsel/graph/embedded_graph.h"
#include "qsel/model/model_spec.h"
#include "qsel/rules/fit_price.h"
#include "qsel/rules/rule_support.h"
#include "support/rules_mini.h"
#include "support/queries.h"

using namespace qsel;
using namespace qsel::test;

namespace {
std::vector<std::string> order(const Deliberation& d) {
  std::vector<std::string> out;
  for (const auto& c : d.candidates) out.push_back(c.format->id + "/" + (c.engine ? c.engine->id : "-"));
  return out;
}
std::size_t pos(const std::vector<std::string>& v, const std::string& s) { return std::find(v.begin(), v.end(), s) - v.begin(); }
}  // namespace

TEST_CASE("ranking: fitting, native, 4-bit-or-more candidates first, sub-4-bit after, emulated after native within a quality band", "[rules][ranking]") {
  auto d = deliberate(mini(), mini_query("gpu-bw"));
  auto o = order(d);
  CHECK(pos(o, "f-fp4/eng-a") < pos(o, "f-mx/eng-a"));        // Rule 3
  CHECK(pos(o, "f-w4/eng-a") < pos(o, "f-gguf2/eng-a"));      // quality floor
  CHECK(pos(o, "f-base/eng-a") < pos(o, "f-gguf2/eng-a"));
  const Candidate* two = find(d, "f-gguf2");
  CHECK(mentions(two->why, "below 4 bits the recorded accuracy cost jumps"));
  CHECK(has(two->evidence, "fact-cost"));
  // An emulated path never ranks before a native or dequant path of at least its weight bits that fits.
  auto amp = deliberate(mini(), mini_query("gpu-amp"));
  int pairs = 0;
  auto bits = [](const Candidate& c) { return c.format->data.value("weight_bits", 0.0); };
  for (std::size_t i = 0; i < amp.candidates.size(); ++i)
    for (std::size_t j = 0; j < amp.candidates.size(); ++j) {
      const Candidate &e = amp.candidates[i], &n = amp.candidates[j];
      if (e.path != "emulated" || n.path == "emulated" || !rule_util::fits(n) || rule_util::has_blocker(n) || n.maturity != "mainline" || n.contested())
        continue;
      if (bits(n) < bits(e) || rule_util::broken(n)) continue;
      ++pairs;
      INFO(n.format->id << " (" << n.path << ") against " << e.format->id << " (" << e.path << ")");
      CHECK(j < i);
    }
  CHECK(pairs > 0);
}

TEST_CASE("ranking: what does not fit ranks last", "[rules][ranking]") {
  Query q = mini_query("gpu-hop-small");
  auto d = deliberate(mini(), q);
  auto o = order(d);
  CHECK(!find(d, "f-base", "eng-a")->memory->fits);
  CHECK(pos(o, "f-base/eng-a") > pos(o, "f-w4/eng-a"));
  CHECK(d.candidates.back().memory->fits == false);
}

TEST_CASE("ranking: the objective is stated and changes the order", "[rules][ranking]") {
  Query q = mini_query("gpu-bw");
  auto quality = deliberate(mini(), q);
  CHECK(mentions(quality.notes, "ranking — objective quality:"));
  auto o = order(quality);
  CHECK(pos(o, "f-base/eng-a") < pos(o, "f-fp8/eng-a"));  // 16 bits first when it fits
  CHECK(pos(o, "f-fp8/eng-a") < pos(o, "f-fp4/eng-a"));   // then 8, then 4
  q.objective = "memory";
  auto memory = deliberate(mini(), q);
  CHECK(mentions(memory.notes, "ranking — objective memory:"));
  auto m = order(memory);
  CHECK(pos(m, "f-gguf2/eng-a") < pos(m, "f-base/eng-a"));  // fewest bytes first
  q.objective = "speed";
  auto speed = order(deliberate(mini(), q));
  CHECK(pos(speed, "f-fp4/eng-a") < pos(speed, "f-base/eng-a"));  // native and fewer bytes before 16-bit
  CHECK(pos(speed, "f-w4/eng-a") < pos(speed, "f-gguf2/eng-a"));  // sub-4-bit after 4 bits
}

TEST_CASE("ranking: docs/ranking.md names every step of the decision table, in the code's order", "[rules][ranking][docs]") {
  std::string page = test::read_text(test::source_dir() + "/docs/ranking.md");
  for (const auto& [part, marker] : {std::pair{"eligibility", "ranking-eligibility"}, std::pair{"tie-breaks", "ranking-tie-breaks"}}) {
    auto a = page.find(std::string("<!-- ") + marker + ":start -->"), b = page.find(std::string("<!-- ") + marker + ":end -->");
    REQUIRE(a != std::string::npos);
    REQUIRE(b != std::string::npos);
    std::vector<std::string> named;  // the second cell of each numbered row
    std::stringstream table(page.substr(a, b - a));
    for (std::string line; std::getline(table, line);) {
      if (line.rfind("| ", 0) != 0 || line.size() < 3 || !std::isdigit(static_cast<unsigned char>(line[2]))) continue;
      auto first = line.find(" | ") + 3;
      named.push_back(line.substr(first, line.find(" | ", first) - first));
    }
    INFO(part);
    CHECK(named == ranking_step_names(part));
  }
}

namespace {
Deliberation on_corpus(const std::string& gpu, const std::string& model, std::vector<std::string> engines) {
  return test::ask_corpus(gpu, model, std::move(engines));
}
}  // namespace

TEST_CASE("ranking: among equal 8-bit candidates, FP8 before INT8 (Rule 3), a published checkpoint, then a first-choice kernel", "[rules][ranking]") {
  // Ada: block FP8 reaches vLLM's Triton fallback, per-tensor and per-row FP8 its CUTLASS kernel.
  auto ada = on_corpus("l40s", "llama-3.1-8b", {"vllm"});
  auto o = order(ada);
  const Candidate* block = find(ada, "fp8-blockwise", "vllm");
  REQUIRE(block);
  CHECK(block->fallback_kernel);
  CHECK(mentions(block->why, "fallback"));
  CHECK(!find(ada, "fp8-rowwise", "vllm")->fallback_kernel);
  CHECK(pos(o, "fp8-rowwise/vllm") < pos(o, "fp8-blockwise/vllm"));
  CHECK(pos(o, "fp8-per-tensor/vllm") < pos(o, "int8-w8a8/vllm"));
  // The publisher's own block-FP8 checkpoint (Qwen/Qwen3-32B-FP8) outranks the kernel preference.
  auto qwen = on_corpus("l40s", "qwen3-32b", {"vllm"});
  CHECK(qwen.candidates.front().format->id == "fp8-blockwise");
  CHECK(qwen.candidates.front().fallback_kernel);
}

TEST_CASE("ranking: an accuracy trap of quantizing to a format is not said of the model released in it", "[rules][ranking]") {
  auto has_trap = [](const Candidate& c) {
    return std::any_of(c.warnings.begin(), c.warnings.end(), [](const Warning& w) { return w.id == "mxfp4-moe-unproven"; });
  };
  auto released = on_corpus("rtx-4090", "gpt-oss-20b", {"vllm"});  // gpt-oss ships its experts in MXFP4
  const Candidate* own = find(released, "mxfp4-moe", "vllm");
  REQUIRE(own);
  CHECK(own->shipped);
  CHECK(!has_trap(*own));
  CHECK(mentions(own->why, "warnings about the accuracy cost of quantizing to it do not apply"));
  auto requantized = on_corpus("rtx-5090", "qwen3-30b-a3b", {});  // a BF16 MoE quantized to MXFP4 keeps it
  bool kept = false;
  for (const auto& c : requantized.candidates)
    if (!c.shipped && has_trap(c)) kept = true;
  CHECK(kept);
}

// Blind audit 17 #35: the unquantized model that holds the batch only with an 8-bit KV cache is no longer the model
// unchanged; a lossless published checkpoint that holds it with the 16-bit cache comes first.
TEST_CASE("ranking: the reference with an 8-bit KV cache Rule 6 chose is priced as a lossless published checkpoint that needs none", "[rules][ranking]") {
  const Graph& g = embedded_graph();
  Query q = test::corpus_query("h100-sxm", "qwen3-235b-a22b", {"vllm"});
  q.count = 8;
  q.batch = 64;
  Deliberation d = deliberate(g, q);
  REQUIRE_FALSE(d.candidates.empty());
  const Candidate& top = d.candidates.front();
  CHECK(top.format->id == "fp8-blockwise");
  CHECK_FALSE(top.release.empty());
  CHECK((top.memory && top.memory->kv_dtype != "fp8-kv"));  // the 16-bit cache
  auto bf16 = std::find_if(d.candidates.begin(), d.candidates.end(), [](const Candidate& c) { return c.format->id == "bf16"; });
  REQUIRE(bf16 != d.candidates.end());
  CHECK(std::any_of(bf16->why.begin(), bf16->why.end(), [](const std::string& w) { return w.find("priced as that checkpoint is") != std::string::npos; }));
  // At batch 1 the 16-bit cache holds the sequence: the unquantized model leads, unchanged.
  q.batch = 1;
  Deliberation one = deliberate(g, q);
  REQUIRE_FALSE(one.candidates.empty());
  CHECK(one.candidates.front().format->id == "bf16");
}

// Blind audit 18 #33: at 128k the KV cache both read hides the 8-bit file's half of the bytes in the end-of-context
// forecast; on a local runner the gain is read at the start of the context too, from the weights alone.
TEST_CASE("ranking: a local runner's 16-bit file is priced by the weight bytes a lossless file saves, at any context", "[rules][ranking]") {
  const Graph& g = embedded_graph();
  Query q = test::corpus_query("strix-halo", "qwen3-coder-30b-a3b", {"llama-cpp"});
  q.context = 131072;
  Deliberation d = deliberate(g, q);
  REQUIRE_FALSE(d.candidates.empty());
  CHECK(d.candidates.front().format->id == "gguf-q8-0");
  auto bf16 = std::find_if(d.candidates.begin(), d.candidates.end(), [](const Candidate& c) { return c.format->id == "bf16"; });
  REQUIRE(bf16 != d.candidates.end());
  CHECK(std::any_of(bf16->why.begin(), bf16->why.end(), [](const std::string& w) { return w.find("at the start of the context") != std::string::npos; }));
}

// Blind audit 32 #22: partly in system RAM the 16-bit file pays an offload plan's price, and the lossless plan it is
// weighed against may be partly in RAM too; what it gives up to that plan's speed is priced as well.
TEST_CASE("ranking: a 16-bit plan partly in RAM is priced by the speed a lossless plan partly in RAM keeps", "[rules][ranking]") {
  const Graph& g = embedded_graph();
  Query q = test::corpus_query("rtx-4060-ti-8gb", "qwen3-30b-a3b", {"llama-cpp"});
  q.host.ram_gb = 64 * kGiBInGB;
  Deliberation d = deliberate(g, q);
  REQUIRE_FALSE(d.candidates.empty());
  const Candidate& first = d.candidates.front();
  CHECK(first.format->id == "gguf-q8-0");
  REQUIRE(first.memory);
  CHECK(first.memory->placement);
  auto bf16 = std::find_if(d.candidates.begin(), d.candidates.end(), [](const Candidate& c) { return c.format->id == "bf16"; });
  REQUIRE(bf16 != d.candidates.end());
  REQUIRE(bf16->memory);
  CHECK(bf16->memory->placement);
  CHECK(std::any_of(bf16->why.begin(), bf16->why.end(), [](const std::string& w) { return w.find("partly in system RAM on a local runner") != std::string::npos; }));
}

// Blind audit 34 #44: at batch 64 a dequantizing kernel past the batch it is built for is counted at the low end of the
// batch forecast's error, and inside a speed band a native path comes first; at batch 1 nothing changes.
TEST_CASE("ranking: under speed at a large batch, a native path leads a dequant one the forecast cannot tell apart", "[rules][ranking]") {
  const Graph& g = embedded_graph();
  Query q = test::corpus_query("b200", "llama-3.1-70b", {"vllm"});
  q.objective = "speed";
  q.batch = 64;
  Deliberation d = deliberate(g, q);
  REQUIRE_FALSE(d.candidates.empty());
  CHECK(d.candidates.front().path == "native");
  auto awq = std::find_if(d.candidates.begin(), d.candidates.end(), [](const Candidate& c) { return c.format->id == "awq"; });
  REQUIRE(awq != d.candidates.end());
  CHECK(decode_speed(*awq->memory) > decode_speed(*d.candidates.front().memory));  // faster on paper, past its design batch
  // Case 147: between native paths the faster still leads (NVFP4 over FP8 at batch 64 on an RTX 5090).
  Query fp4 = test::corpus_query("rtx-5090", "llama-3.1-8b", {"vllm"});
  fp4.objective = "speed";
  fp4.batch = 64;
  fp4.context = 2048;
  CHECK(deliberate(g, fp4).candidates.front().format->id == "nvfp4");
}
