// compute_memory: the decode forecast at a batch. An MoE's step reads the routed experts the
// batch's tokens touch, not k per token: checked against the corpus's published per-user rates of
// DeepSeek-R1 on 8 x H200 (SGLang, concurrency 8 and 64), which the batch-1 calibration never reads.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "qsel/graph/embedded_graph.h"
#include "qsel/rules/rules.h"
#include "support/docs_block.h"
#include "support/queries.h"

using namespace qsel;

namespace {

// The #1 candidate's memory and forecast for `q` on the embedded corpus.
Memory top_memory(const Query& q) {
  Deliberation d = deliberate(embedded_graph(), q);
  REQUIRE(!d.candidates.empty());
  REQUIRE(d.candidates.front().memory);
  return *d.candidates.front().memory;
}

double per_sequence(int batch) {
  Query q = test::corpus_query("h200", "deepseek-r1", {"sglang"});
  q.count = 8;
  q.batch = batch;
  q.context = 2048;
  q.formats = {"fp8-blockwise"};
  return top_memory(q).per_sequence_tok_s;
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

// The forecast is the rate at the end of --context, its whole KV cache read each step; the rate at its start reads
// the weights alone. Both come from one calibration: at a short context they agree, at a long one the start is faster
// by about the share of the bytes the cache adds.
TEST_CASE("compute_memory: the decode forecast is stated at the end of the context and at its start", "[rules][forecast]") {
  auto top = [](long context) {
    Query q = test::corpus_query("rtx-4090", "qwen3-32b", {"llama-cpp"});
    q.context = context;
    q.formats = {"gguf-q4-k-m"};
    return top_memory(q);
  };
  Memory short_context = top(512), long_context = top(32768);
  REQUIRE(long_context.forecast_tok_s > 0);
  REQUIRE(long_context.forecast_start_tok_s > 0);
  CHECK(long_context.forecast_start_tok_s > 1.1 * long_context.forecast_tok_s);
  CHECK(long_context.forecast_start_tok_s == Approx(short_context.forecast_start_tok_s).epsilon(0.01));  // the weights alone either way
  CHECK(short_context.forecast_start_tok_s == Approx(short_context.forecast_tok_s).epsilon(0.02));
  // The bytes decide the ratio: weights + the cache against the weights alone, less what the per-layer terms hold fixed.
  double bytes_ratio = (long_context.weights_gb + long_context.kv_gb) / long_context.weights_gb;
  CHECK(long_context.forecast_start_tok_s / long_context.forecast_tok_s <= bytes_ratio);
}

// vLLM's recipes raise --gpu-memory-utilization to 0.95 "to maximize KVCache" (engine memory.fraction_raise): a checkpoint
// that fits only there is a tight fit whose command carries the fraction (and fewer sequences if that is still short),
// not "no deployment"; one that fits at the default keeps it; a fraction the user chose is never raised.
TEST_CASE("compute_memory: a fit that needs the engine's raised memory fraction is tight and its command says so", "[rules][memory]") {
  Query q = test::corpus_query("rtx-4090", "qwq-32b", {"vllm"});
  q.context = 32768;
  q.formats = {"awq"};
  q.kv_cache = "fp8";
  Deliberation d = deliberate(embedded_graph(), q);
  REQUIRE(!d.candidates.empty());
  const Memory& m = *d.candidates.front().memory;
  CHECK(m.fit == "tight");
  CHECK(m.budget.fraction == 0.95);
  CHECK(m.setting.rfind("--gpu-memory-utilization 0.95", 0) == 0);
  REQUIRE(!m.commands.empty());
  bool carried = false;
  for (const auto& c : m.commands)
    if (c.role == "run") carried = c.text.find("--gpu-memory-utilization 0.95") != std::string::npos &&
                                   (m.max_num_seqs == 0 || c.text.find(fmt::format("--max-num-seqs {}", m.max_num_seqs)) != std::string::npos);
  CHECK(carried);

  q.context = 8192;  // fits at the default
  Deliberation at_default = deliberate(embedded_graph(), q);
  CHECK(at_default.candidates.front().memory->budget.fraction == 0.9);
  CHECK(at_default.candidates.front().memory->setting.empty());

  q.context = 32768;
  q.memory_fraction = 0.9;  // the user's choice stands
  Deliberation chosen = deliberate(embedded_graph(), q);
  CHECK(chosen.candidates.front().memory->fit == "no");
  CHECK(chosen.candidates.front().memory->budget.fraction == 0.9);
}

// Blind audit 32 #20: Ollama's gemma3n:e4b is 7.5 GB on its page, not the 4.9 GB Q4_K_M's bits give; where it does
// not fit on the GPU, the Hub file of the type Ollama also runs is the answer, and where it fits the tag is.
TEST_CASE("compute_memory: an engine's library tag is sized as its page shows it, and a Hub file of the type stands in where it does not fit", "[rules][memory]") {
  Query q = test::corpus_query("jetson-orin-nano-super", "gemma-3n-e4b", {"ollama"});
  q.formats = {"gguf-q4-k-m"};
  Deliberation d = deliberate(embedded_graph(), q);
  REQUIRE(!d.candidates.empty());
  const Candidate& small = d.candidates.front();
  CHECK(small.release == "unsloth/gemma-3n-E4B-it-GGUF");
  REQUIRE(small.memory);
  CHECK(small.memory->fits);
  CHECK(small.memory->weights_gb < 5.5);

  Query big = test::corpus_query("rtx-4090", "gemma-3n-e4b", {"ollama"});
  big.formats = {"gguf-q4-k-m"};
  Deliberation roomy = deliberate(embedded_graph(), big);
  REQUIRE(!roomy.candidates.empty());
  CHECK(roomy.candidates.front().release == "gemma3n:e4b");
  REQUIRE(roomy.candidates.front().memory);
  CHECK(roomy.candidates.front().memory->weights_gb == Approx(7.45));
  CHECK(roomy.candidates.front().memory->bpw < 5.5);  // the type's bits: the wide tables are read, not quantized
}

namespace {

// Every published per-user decode rate at a batch (concurrency above 1) of a recorded model, engine, format
// and part, with the forecast qsel gives that layout (the run's parts, batch and context): the check
// docs/performance-model.md, "A batch of an MoE", reports. The calibration reads batch-1 runs only.
struct BatchCheck {
  const Record* run = nullptr;
  double measured = 0, forecast = 0;
  double error() const { return (forecast - measured) / measured; }
};

std::vector<BatchCheck> batch_checks() {
  const Graph& g = embedded_graph();
  std::vector<BatchCheck> out;
  for (const Record* b : g.of_kind(Kind::Benchmark)) {
    if (!b->data.contains("speed") || b->str("grade") == "unverified") continue;
    const auto& s = b->data["speed"];
    if (s.value("phase", "") != "decode" || !s.value("per_user", false) || s.value("batch", 1) <= 1 || s.value("eager", false)) continue;
    if (!g.find(b->str("model_id")) || !g.find(b->str("format_id")) || !g.find(b->str("accelerator")) || !g.find(b->str("engine"))) continue;
    Query q = test::corpus_query(b->str("accelerator"), b->str("model_id"), {b->str("engine")});
    q.count = std::max(1, s.value("gpus", 1));
    q.batch = s.value("batch", 1);
    q.context = std::max(256L, s.value("context", 2048L));
    q.formats = {b->str("format_id")};
    Deliberation d = deliberate(g, q);
    if (d.candidates.empty() || !d.candidates.front().memory || d.candidates.front().memory->per_sequence_tok_s <= 0) continue;
    out.push_back({b, s.value("tok_s", 0.0), d.candidates.front().memory->per_sequence_tok_s});
  }
  return out;
}

double rank(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[std::min(v.size() - 1, static_cast<std::size_t>(static_cast<double>(v.size()) * q))];
}

}  // namespace

TEST_CASE("compute_memory: docs/performance-model.md reports the forecast against every published per-user rate at a batch",
          "[rules][forecast][docs]") {
  auto checks = batch_checks();
  REQUIRE(checks.size() >= 30);
  std::vector<double> absolute, signed_errors;
  for (const BatchCheck& c : checks) {
    absolute.push_back(std::fabs(c.error()));
    signed_errors.push_back(c.error());
  }
  std::string table = "| runs | median absolute error | 90th percentile | median signed error |\n|---|---|---|---|\n";
  table += fmt::format("| {} | {:.0f}% | {:.0f}% | {:+.0f}% |\n", checks.size(), rank(absolute, 0.5) * 100, rank(absolute, 0.9) * 100,
                       rank(signed_errors, 0.5) * 100);
  std::sort(checks.begin(), checks.end(), [](const BatchCheck& a, const BatchCheck& b) { return std::fabs(a.error()) > std::fabs(b.error()); });
  table += "\n| run | concurrency | measured per user | forecast | error |\n|---|---|---|---|---|\n";
  for (std::size_t i = 0; i < checks.size() && i < 8; ++i)
    table += fmt::format("| {} | {} | {:.1f} | {:.1f} | {:+.0f}% |\n", checks[i].run->id, checks[i].run->data["speed"].value("batch", 1),
                         checks[i].measured, checks[i].forecast, checks[i].error() * 100);
  test::check_docs_block("docs/performance-model.md", "batch-check", table, "[forecast]");
  CHECK(rank(absolute, 0.5) < 0.35);  // the bound the page states
}

TEST_CASE("compute_memory: a bitrate the user chooses is the largest that fits, and under --objective speed at most 4 bits",
          "[rules][memory]") {
  // Blind audit 39 #21: EXL3 at 5.86 bpw on a 32 GB RTX 5090 under --objective speed; fewer bytes decode faster.
  auto chosen = [](const std::string& objective) {
    Query q = test::corpus_query("rtx-5090", "qwen3-32b", {"exllamav3"});
    q.objective = objective;
    q.formats = {"exl3"};
    return top_memory(q);
  };
  Memory quality = chosen("quality"), speed = chosen("speed");
  CHECK(quality.chosen_bpw > 5);
  CHECK(speed.chosen_bpw == Approx(4.0));
  CHECK(speed.bpw_source.find("--objective speed") != std::string::npos);
  CHECK(speed.forecast_tok_s > quality.forecast_tok_s);
}
