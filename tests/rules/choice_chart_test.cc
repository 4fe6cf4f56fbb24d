// The chart of a recommendation as numbers: scales, the Pareto frontier, what is left out.
#include <cmath>

#include <catch2/catch.hpp>

#include "qsel/rules/choice_chart.h"

using namespace qsel;

namespace {

ChartInput chart_input(std::size_t rank, const std::string& engine, double cost, double low, double high, double tok_s, double total, bool fits) {
  ChartInput x;
  x.rank = rank;
  x.engine = engine;
  x.quality_known = true;
  x.cost = cost;
  x.low = low;
  x.high = high;
  x.tok_s = tok_s;
  x.sized = true;
  x.total_gb = total;
  x.budget_gb = 70;
  x.fits = fits;
  return x;
}

std::vector<ChartInput> six_inputs() {
  ChartInput unknown;
  unknown.rank = 4;
  unknown.engine = "vllm";
  unknown.no_quality = "no estimate: no quality family covers q";
  ChartInput unforecast = chart_input(5, "llama-cpp", 0.02, 0.01, 0.04, 0, 30, true);
  return {chart_input(1, "vllm", 0.01, 0.005, 0.02, 40, 40, true), chart_input(2, "sglang", 0, 0, 0, 20, 140, false), chart_input(3, "", 0.05, 0.03, 0.08, 60, 20, true),
          unknown, unforecast, chart_input(6, "vllm", 0.02, 0.015, 0.03, 30, 35, true)};
}

}  // namespace

TEST_CASE("choice_chart: the Pareto frontier keeps what nothing beats on both, equal points too, ordered by cost", "[rules][chart]") {
  CHECK(pareto_frontier({{0.1, 10}, {0.1, 10}, {0.2, 5}, {0.05, 3}}) == std::vector<std::size_t>{3, 0, 1});
  CHECK(pareto_frontier({}).empty());
  CHECK(pareto_frontier({{0.2, 50}, {0.1, 50}}) == std::vector<std::size_t>{1});  // same speed, less cost
}

TEST_CASE("choice_chart: candidates on log axes, the frontier among those that fit, the rest listed with the reason", "[rules][chart]") {
  ChoiceChart c = choice_chart(six_inputs());
  REQUIRE(c.points.size() == 4);
  CHECK(c.points[0].rank == 1);
  CHECK(c.points[3].rank == 6);
  // rank 2 is faster per quality than nothing that fits and does not fit: not on the frontier; rank 6 is beaten by rank 1
  CHECK(c.frontier == std::vector<std::size_t>{1, 3});
  CHECK(c.points[0].frontier);
  CHECK_FALSE(c.points[1].frontier);
  CHECK_FALSE(c.points[1].fits);
  CHECK_FALSE(c.points[3].frontier);
  REQUIRE(c.left_out.size() == 2);
  CHECK(c.left_out[0].rank == 4);
  CHECK(c.left_out[0].reason == "no estimate: no quality family covers q");
  CHECK(c.left_out[1].rank == 5);
  CHECK(c.left_out[1].reason == "no decode-speed forecast: the part's memory bandwidth is not known (--bandwidth)");
  std::vector<ChartInput> in = six_inputs();
  in[4].ceiling_tok_s = 61.4;
  CHECK(choice_chart(in).left_out[1].reason == "no decode-speed forecast: no measurement calibrates its engine here (bandwidth ceiling 61 tok/s)");
  CHECK(c.engines == std::vector<std::string>{"vllm", "sglang", "none", "llama-cpp"});
  CHECK(c.points[2].engine_slot == 2);
  // quality: symmetric log from 0 to the decade above the highest band (0.08 -> 0.1)
  REQUIRE(c.x_ticks.size() == 4);
  CHECK(c.x_ticks[0].label == "0");
  CHECK(c.x_ticks[1].label == "0.001");
  CHECK(c.x_ticks[3].label == "0.1");
  CHECK(c.x_ticks[3].at == Approx(1));
  CHECK(c.points[1].x == 0);  // the reference at the left edge
  CHECK(c.points[0].x == Approx(std::log10(11) / std::log10(101)));
  CHECK(c.points[0].x_low < c.points[0].x);
  CHECK(c.points[0].x_high > c.points[0].x);
  // speed: 20 to 60 tok/s -> 20 .. 100 with 1-2-5 ticks
  REQUIRE(c.y_ticks.size() == 3);
  CHECK(c.y_ticks[0].label == "20");
  CHECK(c.y_ticks[0].at == Approx(0));
  CHECK(c.y_ticks[2].label == "100");
  CHECK(c.y_ticks[2].at == Approx(1));
  CHECK(c.points[2].y == Approx(std::log10(3) / std::log10(5)));
  // marker area follows memory: the largest (140 GB) has radius share 1
  CHECK(c.points[1].size == Approx(1));
  CHECK(c.points[2].size == Approx(std::sqrt(20.0 / 140)));
  // memory: 0..200 GB in 50 GB steps; every sized candidate has a bar with its budget
  CHECK(c.memory_scale_gb == 200);
  REQUIRE(c.memory_ticks.size() == 5);
  CHECK(c.memory_ticks[1].label == "50");
  REQUIRE(c.bars.size() == 5);
  CHECK(c.bars[1].rank == 2);
  CHECK(c.bars[1].total == Approx(0.7));
  CHECK(c.bars[1].budget == Approx(0.35));
  CHECK(c.unsized == std::vector<std::size_t>{4});
}

TEST_CASE("choice_chart: nothing to draw, and nothing that fits, say so", "[rules][chart]") {
  std::vector<ChartInput> in = six_inputs();
  in.erase(in.begin(), in.begin() + 3);
  in.pop_back();  // left: rank 4 (no estimate) and rank 5 (no forecast)
  ChoiceChart c = choice_chart(in);
  CHECK(c.points.empty());
  CHECK(c.frontier.empty());
  CHECK(c.x_ticks.empty());
  CHECK(c.left_out.size() == 2);
  CHECK(c.bars.size() == 1);
  ChoiceChart none_fit = choice_chart({chart_input(1, "vllm", 0.01, 0.005, 0.02, 40, 400, false)});
  CHECK(none_fit.points.size() == 1);
  CHECK(none_fit.frontier.empty());
  CHECK(none_fit.frontier_note == "no candidate fits: no frontier is drawn");
}
