// The tensor-parallel and serving per-layer terms (src/sizing/forecast_tp.cc): fitted on the corpus's batch-1 runs
// of several GPUs, and of serving engines on one, and each run predicted from a fit on the others. The tables
// docs/performance-model.md reports are generated here and compared with the page (QSEL_UPDATE_DOCS=1 rewrites them).
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "qsel/graph/embedded_graph.h"
#include "qsel/graph/graph.h"
#include "qsel/sizing/forecast.h"
#include "support/docs_block.h"

using namespace qsel;

namespace {

void tp_page_block(const std::string& name, const std::string& want) { test::check_docs_block("docs/performance-model.md", name, want, "[forecast]"); }

std::string serving_held_out_table(const Graph& g) {
  std::string out = "| engine, backend | held-out runs | bandwidth x pooled efficiency alone: median | with the per-layer term: median |\n|---|---|---|---|\n";
  for (const FloorHeldOut& h : serving_floor_held_out(speed_rows(g), serving_rows(g)))
    out += h.engine.empty() ? fmt::format("| **all** | {} | {:.0f}% | {:.0f}% |\n", h.rows, h.without_median * 100, h.with_median * 100)
                            : fmt::format("| {}, {} | {} | {:.0f}% | {:.0f}% |\n", h.engine, h.backend, h.rows, h.without_median * 100,
                                          h.with_median * 100);
  return out;
}

}  // namespace

TEST_CASE("forecast: serving engines' single-GPU runs give their per-layer term", "[forecast]") {
  const Graph& g = embedded_graph();
  auto rows = serving_rows(g);
  REQUIRE(rows.size() >= 3);
  for (const TpRow& r : rows) {
    CHECK(r.tp == 1);
    CHECK(g.find(r.engine)->str("role") == "serving");
  }
  Calibration c(speed_rows(g));
  c.fit_serving_floor(rows);
  CHECK(c.step_floor("vllm", "cuda", true).rows == static_cast<int>(rows.size()));
  CHECK(c.step_floor("vllm", "cuda", true).layer_s > 5e-6);
  CHECK(c.step_floor("vllm", "cuda", true).layer_s < 1e-3);
  CHECK(c.step_floor("vllm", "cuda", true).efficiency > 0);  // fitted at the pooled efficiency with the pooled term out
  CHECK(c.step_floor("vllm", "cuda", true).pooled);
  CHECK(c.step_floor("exllamav3", "cuda", false).source == "every engine's single-GPU runs");  // a local engine with no runs: pooled
}

TEST_CASE("forecast: docs/performance-model.md reports the serving engines' held-out runs", "[forecast][docs]") {
  tp_page_block("serving-held-out", serving_held_out_table(embedded_graph()));
}

TEST_CASE("forecast: the tensor-parallel terms rest on the corpus's multi-GPU runs and predict each held out", "[forecast]") {
  const Graph& g = qsel::embedded_graph();
  auto rows = tp_rows(g);
  REQUIRE(rows.size() >= 20);
  Calibration all(speed_rows(g));
  all.fit_tensor_parallel(rows);
  TpTerm every_engine = all.tensor_parallel("no-such-engine", "cuda");
  CHECK(every_engine.base_group.empty());
  CHECK(every_engine.expert_group.empty());
  CHECK(every_engine.base_s > 10e-6);  // all-reduces alone are tens of microseconds per layer
  CHECK(every_engine.base_s < 1e-3);
  CHECK(every_engine.expert_s > 1e-6);
  CHECK(every_engine.expert_s < 200e-6);
  // Leave one run out, and one configuration out (its runs at other prompt lengths with it): fit on the others,
  // forecast it. The terms as fitted must beat the pooled per-layer figure alone — what qsel answered with
  // before the expert term — in the median and in the 90th percentile, and the page's bounds hold
  // (docs/performance-model.md, "Several GPUs").
  auto held = tp_held_out_errors(speed_rows(g), rows);
  REQUIRE(!held.empty());
  const TpHeldOut& every = held.back();
  REQUIRE(every.group.empty());
  REQUIRE(every.rows == static_cast<int>(rows.size()));
  WARN("tensor-parallel rows " << every.rows << ": held-out median " << every.fitted_median << ", p90 " << every.fitted_p90
                               << "; configurations held out: " << every.configuration_median << ", " << every.configuration_p90
                               << " (pooled figure alone: " << every.pooled_median << ", " << every.pooled_p90
                               << "; bandwidth x efficiency alone: " << every.bandwidth_median << ")");
  CHECK(every.fitted_median < every.pooled_median);
  CHECK(every.fitted_p90 < every.pooled_p90);
  CHECK(every.fitted_median < 0.15);
  CHECK(every.fitted_p90 < 0.35);
  CHECK(every.configuration_median < 0.22);
  CHECK(every.configuration_p90 < 0.40);
  CHECK(every.fitted_median < every.bandwidth_median / 3);
  // Every MoE run names how many experts a token reads (its model record's active_experts).
  for (const TpRow& r : rows)
    if (r.moe) CHECK(r.experts > 0);
}

TEST_CASE("forecast: the tensor-parallel terms come from the engine on the backend, else the engine, else every run", "[forecast]") {
  auto speed = [](double ratio) {
    SpeedRow r;
    r.engine = "e";
    r.backend = "cuda";
    r.ceiling_tok_s = 100;
    r.measured_tok_s = 100 * ratio;
    return r;
  };
  Calibration c({speed(0.5), speed(0.5), speed(0.5)});  // efficiency 0.5
  auto run = [](const std::string& engine, const std::string& backend, int experts, double layer_s) {  // each layer adds layer_s
    TpRow r;
    r.engine = engine;
    r.backend = backend;
    r.moe = experts > 0;
    r.experts = experts;
    r.layers = 10;
    r.ceiling_tok_s = 1000;
    r.measured_tok_s = 1 / (1 / (0.5 * 1000) + 10 * layer_s);
    return r;
  };
  // a on cuda: three dense runs at 50 us and three MoE runs of 8 experts at 50 + 8 x 20 us;
  // a on rocm: three MoE runs of 4 experts at 50 + 4 x 60 us (its dense figure is a's over every backend);
  // b: two dense runs at 200 us, too few for its own figure. Runs without a configuration are each their own.
  std::vector<TpRow> rows;
  for (int i = 0; i < 3; ++i) {
    rows.push_back(run("a", "cuda", 0, 50e-6));
    rows.push_back(run("a", "cuda", 8, 50e-6 + 8 * 20e-6));
    rows.push_back(run("a", "rocm", 4, 50e-6 + 4 * 60e-6));
  }
  rows.push_back(run("b", "cuda", 0, 200e-6));
  rows.push_back(run("b", "cuda", 0, 200e-6));
  c.fit_tensor_parallel(rows);
  TpTerm a_cuda = c.tensor_parallel("a", "cuda"), a_rocm = c.tensor_parallel("a", "rocm"), b = c.tensor_parallel("b", "cuda");
  CHECK(a_cuda.base_s == Approx(50e-6));
  CHECK(a_cuda.base_group == "a|cuda");
  CHECK(a_cuda.expert_s == Approx(20e-6));
  CHECK(a_cuda.expert_group == "a|cuda");
  CHECK(a_cuda.layer_s(8) == Approx(210e-6));
  CHECK(a_rocm.base_group == "a");  // no dense run of a on rocm: a's over every backend
  CHECK(a_rocm.base_s == Approx(50e-6));
  CHECK(a_rocm.expert_group == "a|rocm");
  CHECK(a_rocm.expert_s == Approx(60e-6));
  CHECK(b.base_group.empty());  // two runs: every dense run's median (50, 50, 50, 200, 200)
  CHECK(b.base_s == Approx(50e-6));
  CHECK(b.expert_group.empty());
  CHECK(c.tensor_parallel("a", "cuda").layer_s(0) == Approx(50e-6));  // a dense model adds no expert term
}

namespace {

std::string pct(double x) { return fmt::format("{:.0f}%", x * 100); }

std::string group_name(const std::string& g) {
  if (g.empty()) return "**every run**";
  auto bar = g.find('|');
  return bar == std::string::npos ? g + ", every backend" : g.substr(0, bar) + ", " + g.substr(bar + 1);
}

std::string tp_terms_table(const Graph& g) {
  Calibration c(speed_rows(g));
  c.fit_tensor_parallel(tp_rows(g));
  auto figure = [](int configurations, double s) {
    return configurations >= 3 ? fmt::format("{:.0f} us", s * 1e6) : std::string("fewer than 3 configurations");
  };
  auto counts = [](int runs, int configurations) { return runs ? fmt::format("{} ({})", runs, configurations) : std::string("0"); };
  std::string out =
      "| group | dense runs (configurations) | per-layer figure | MoE runs (configurations) | per routed expert, per layer |\n"
      "|---|---|---|---|---|\n";
  auto line = [&](const TpGroup& x) {
    return fmt::format("| {} | {} | {} | {} | {} |\n", group_name(x.group), counts(x.dense_rows, x.dense_configurations),
                       x.dense_rows ? figure(x.dense_configurations, x.base_s) : "", counts(x.moe_rows, x.moe_configurations),
                       x.moe_rows ? figure(x.moe_configurations, x.expert_s) : "");
  };
  for (const TpGroup& x : c.tensor_parallel_groups())
    if (!x.group.empty()) out += line(x);
  for (const TpGroup& x : c.tensor_parallel_groups())
    if (x.group.empty()) out += line(x);
  return out;
}

std::string tp_held_out_table(const Graph& g) {
  std::string out =
      "| runs | held-out runs | pooled figure alone: median, p90 | as fitted, one run held out: median, p90 | as fitted, its configuration held out: median, p90 | bandwidth x efficiency alone: median |\n"
      "|---|---|---|---|---|---|\n";
  for (const TpHeldOut& h : tp_held_out_errors(speed_rows(g), tp_rows(g))) {
    std::string name = h.group.empty() ? "**all**" : h.group;
    out += fmt::format("| {} | {} | {}, {} | {}, {} | {}, {} | {} |\n", name, h.rows, pct(h.pooled_median), pct(h.pooled_p90), pct(h.fitted_median),
                       pct(h.fitted_p90), pct(h.configuration_median), pct(h.configuration_p90), pct(h.bandwidth_median));
  }
  return out;
}

}  // namespace

TEST_CASE("forecast: docs/performance-model.md reports the tensor-parallel fit and its held-out runs", "[forecast][docs]") {
  const Graph& g = embedded_graph();
  tp_page_block("tp-terms", tp_terms_table(g));
  tp_page_block("tp-held-out", tp_held_out_table(g));
}
