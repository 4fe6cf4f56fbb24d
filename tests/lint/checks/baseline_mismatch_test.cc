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
