#include <catch2/catch.hpp>

#include "lint/lint_support.h"

using namespace qsel;
using namespace qsel::test;

namespace {

std::string baseline_bench(const std::string& id, const std::string& metric, const std::string& extra) {
  return replaced(minimal_record("benchmark", id, extra), "metric: ppl", "metric: " + metric);
}

}  // namespace

TEST_CASE("QS026 baseline-mismatch fires on another metric or model", "[lint][QS026]") {
  TempDir d;
  d.write("models/m1.yaml", minimal_record("model", "m1"));
  d.write("models/m2.yaml", minimal_record("model", "m2"));
  d.write("benchmarks/ref-ppl.yaml", baseline_bench("ref-ppl", "ppl", "model_id: m1\n"));
  d.write("benchmarks/ref-acc.yaml", baseline_bench("ref-acc", "accuracy", "model_id: m2\n"));
  d.write("benchmarks/q-acc.yaml", baseline_bench("q-acc", "accuracy", "model_id: m1\nbaseline:\n  benchmark: ref-ppl\n"));
  d.write("benchmarks/q-acc2.yaml", baseline_bench("q-acc2", "accuracy", "model_id: m1\nbaseline: {benchmark: ref-acc}\n"));
  auto f = lint_code(d.path(), "QS026");
  REQUIRE(f.size() == 2);
  CHECK(where(f[0], d.path()) == "benchmarks/q-acc.yaml:9:14: baseline ref-ppl measures \"ppl\", not \"accuracy\"");
  CHECK(where(f[1], d.path()) == "benchmarks/q-acc2.yaml:8:23: baseline ref-acc is on model m2, not m1");
}

TEST_CASE("QS026 baseline-mismatch is clean on the same metric and model", "[lint][QS026]") {
  TempDir d;
  d.write("models/m1.yaml", minimal_record("model", "m1"));
  d.write("benchmarks/ref.yaml", baseline_bench("ref", "accuracy", "model_id: m1\n"));
  d.write("benchmarks/q.yaml", baseline_bench("q", "accuracy", "model_id: m1\nbaseline: {benchmark: ref}\n"));
  d.write("benchmarks/v.yaml", baseline_bench("v", "accuracy", "baseline: {value: 82.36, label: BF16}\n"));
  CHECK(lint_code(d.path(), "QS026").empty());
}

TEST_CASE("QS026 baseline-mismatch fires on an inline baseline of another kind of metric", "[lint][QS026]") {
  TempDir d;
  d.write("benchmarks/kld.yaml", baseline_bench("kld", "KL divergence vs FP16",
                                                "baseline:\n  value: 6.23316\n  label: FP16 perplexity (f16 row of the same table)\n"));
  d.write("benchmarks/ppl.yaml", baseline_bench("ppl", "wikitext-2 perplexity", "baseline:\n  value: 78.2\n  label: BF16 accuracy on MMLU\n"));
  d.write("benchmarks/q.yaml", baseline_bench("q", "mean score",
                                              "quality: {metric: kld, value: 0.03, reference: f16}\nbaseline: {value: 0.5, label: f16 itself}\n"));
  auto f = lint_code(d.path(), "QS026");
  REQUIRE(f.size() == 3);
  CHECK(where(f[0], d.path()) == "benchmarks/kld.yaml:8:10: baseline value 6.23316 is not 0, but the benchmark measures a KL divergence "
                                 "from the reference: its baseline is the reference against itself, 0");
  CHECK(where(f[1], d.path()) == "benchmarks/ppl.yaml:9:10: baseline label names an accuracy, but the benchmark measures a perplexity");
  CHECK(where(f[2], d.path()) == "benchmarks/q.yaml:8:19: baseline value 0.5 is not 0, but the benchmark measures a KL divergence from "
                                 "the reference: its baseline is the reference against itself, 0");
}

TEST_CASE("QS026 baseline-mismatch is clean on an inline baseline of the same kind, and a divergence from itself", "[lint][QS026]") {
  TempDir d;
  d.write("benchmarks/kld.yaml", baseline_bench("kld", "KL divergence vs FP16",
                                                "baseline:\n  value: 0\n  label: the f16 model against itself\n"));
  d.write("benchmarks/ppl.yaml", baseline_bench("ppl", "wikitext-2 perplexity", "baseline: {value: 6.2332, label: FP16 perplexity}\n"));
  d.write("benchmarks/acc.yaml", baseline_bench("acc", "GSM8K accuracy", "baseline: {value: 82.36, label: BF16 run}\n"));
  CHECK(lint_code(d.path(), "QS026").empty());
}
