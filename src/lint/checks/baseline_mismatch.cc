// QS026: a benchmark's baseline measures a different metric or model.
#include <fmt/format.h>

#include "checks.h"
#include "qsel/core/text.h"
#include "util.h"

namespace qsel::lint_checks {
namespace {

constexpr RuleInfo kInfo{
    "QS026", "baseline-mismatch", Severity::Warning, false,
    "A benchmark's baseline benchmark measures a different metric or a different model.",
    {R"(A benchmark whose `baseline.benchmark` names a benchmark record with a different `metric`, or a different model: different `model_id` when both have one, or different `model` text when neither has a `model_id`.)",
     R"(A delta is only meaningful against the same measurement: GSM8K accuracy against GSM8K accuracy, on the same model. A baseline of another metric or model produces a number that looks like a quality delta and is not one — the kind of uncontrolled comparison doc 23 warns about for named GGUF quants across models.)",
     R"(# benchmarks/bench-qwen3-8b-mxfp4-w4a16-marlin.yaml
id: bench-qwen3-8b-mxfp4-w4a16-marlin
metric: AIME-24/25 + GSM8K + MATH-500 average accuracy
model_id: qwen3-8b
baseline:
  benchmark: bench-llama-2-7b-bf16-ppl   # metric: wikitext-2 perplexity)",
     R"(benchmarks/bench-qwen3-8b-mxfp4-w4a16-marlin.yaml:6:14: warning: baseline bench-llama-2-7b-bf16-ppl measures "wikitext-2 perplexity", not "AIME-24/25 + GSM8K + MATH-500 average accuracy" [QS026 baseline-mismatch])",
     R"(Point `baseline.benchmark` at the benchmark of the same metric and model (the unquantized reference run), or give the baseline as a plain `baseline.value` with a `label` saying where it comes from.)"}};

std::string mismatch(const Record& b, const Record& base) {
  if (b.str("metric") != base.str("metric"))
    return fmt::format("measures {}, not {}", quote_value(base.str("metric")), quote_value(b.str("metric")));
  std::string m = b.str("model_id"), bm = base.str("model_id");
  if (!m.empty() && !bm.empty() && m != bm) return fmt::format("is on model {}, not {}", bm, m);
  if (m.empty() && bm.empty() && to_lower(b.str("model")) != to_lower(base.str("model")))
    return fmt::format("is on {}, not {}", quote_value(base.str("model")), quote_value(b.str("model")));
  return "";
}

void check_record(CheckContext& c, const Record& b) {
  const Record* base = c.graph().find(str_at(b, "/baseline/benchmark"));
  if (!base || base->kind != Kind::Benchmark) return;
  std::string why = mismatch(b, *base);
  if (!why.empty()) c.report(b, "/baseline/benchmark", fmt::format("baseline {} {}", base->id, why));
}

// Read of every benchmark: the baseline it names, and what the comparison needs of both.
constexpr KeptField kReads[] = {{Kind::Benchmark, "/baseline/benchmark"}, {Kind::Benchmark, "/metric"},
                                {Kind::Benchmark, "/model_id"}, {Kind::Benchmark, "/model"}};

void run(CheckContext& c) {
  for (const Record* r : c.graph().of_kind(Kind::Benchmark)) check_record(c, *r);
}

}  // namespace

Check baseline_mismatch() { return {.info = &kInfo, .run = run, .reads = kReads}; }

}  // namespace qsel::lint_checks
