// The picture of a recommendation (`recommend --format html|svg`) as numbers a renderer
// only lays out: every candidate's quality estimate (with its band) against its forecast
// decode speed, each scaled onto its axis (0..1), the Pareto frontier, the memory bars
// against the budget, and the candidates that cannot be drawn with the reason. The
// scales and the frontier are decided here, not in src/report (renderers never compute).
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "qsel/rules/deliberation.h"

namespace qsel {

// What the chart reads of one candidate (rank 1 is the answer's #1).
struct ChartInput {
  std::size_t rank = 0;
  std::string engine;        // colour key; "" for none (the unquantized baseline)
  bool quality_known = false;
  double cost = 0, low = 0, high = 0;  // quality cost with its 80% band, KLD-equivalent nats (KV cache cost included)
  std::string no_quality;    // why there is no estimate, when there is none
  double tok_s = 0;          // forecast decode tokens per second; 0: no forecast
  double ceiling_tok_s = 0;  // the bandwidth ceiling; 0: the part's bandwidth is not known
  bool sized = false;        // memory was sized (a total and a budget)
  double total_gb = 0, budget_gb = 0;
  bool fits = false;
};

struct ChartTick {
  double at = 0;             // 0..1 along the axis (x: left to right, y: bottom to top)
  std::string label;
};

struct ChartPoint {
  std::size_t rank = 0;
  std::size_t engine_slot = 0;  // index into ChoiceChart::engines (its colour)
  double x = 0, x_low = 0, x_high = 0;  // quality cost and its band, 0..1 (left: the reference)
  double y = 0;                          // forecast decode speed, 0..1 (top: fastest)
  double size = 0;                       // marker radius as a share of the largest (its area follows memory), 0..1
  bool fits = false;
  bool frontier = false;
};

struct ChartBar {
  std::size_t rank = 0;
  double total = 0, budget = 0;  // 0..1 of ChoiceChart::memory_scale_gb
  bool fits = false;
};

struct ChartLeftOut {
  std::size_t rank = 0;
  std::string reason;
};

struct ChoiceChart {
  std::vector<ChartPoint> points;     // rank order
  std::vector<std::size_t> frontier;  // ranks on the Pareto frontier (fitting candidates), least quality cost first
  std::vector<ChartLeftOut> left_out; // candidates not drawn, with the reason
  std::vector<std::string> engines;   // colour slots, in order of first appearance ("none" for no engine)
  std::vector<ChartTick> x_ticks, y_ticks, memory_ticks;
  std::vector<ChartBar> bars;         // every sized candidate, rank order
  std::vector<std::size_t> unsized;   // ranks with no memory figure
  double memory_scale_gb = 0;         // the memory axis' full length
  std::string x_label, y_label, frontier_note;
};

// The Pareto frontier of (cost, tok/s) pairs: indexes of the points no other point beats
// (no more cost and no less speed, one of them strictly), ordered by cost. Equal points are
// all kept.
std::vector<std::size_t> pareto_frontier(const std::vector<std::pair<double, double>>& cost_speed);

ChoiceChart choice_chart(const std::vector<ChartInput>& in);
// The chart's inputs read from a deliberation's candidates (rank = index + 1).
std::vector<ChartInput> chart_inputs(const Deliberation& d);

}  // namespace qsel
