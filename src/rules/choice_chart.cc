#include "qsel/rules/choice_chart.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace qsel {
namespace {
namespace chart {  // its own names: the rules sources build as one unit

// Quality cost runs from 0 (the reference) over four decades (lossless ~0.003 to broken
// ~0.25 and beyond): a symmetric log, linear below kCostKnee, so the reference has a place.
constexpr double kCostKnee = 0.001;
double cost_scale(double c) { return std::log10(1 + std::max(0.0, c) / kCostKnee); }

std::string number_label(double v) {
  if (v == 0) return "0";
  if (v >= 1) return fmt::format("{:g}", v);
  return fmt::format("{:.3g}", v);
}

// The quality axis: 0, then each decade from kCostKnee up to the first one above `top`.
void quality_axis(ChoiceChart& c, double top, double& full) {
  double last = kCostKnee;
  while (last < top && last < 1e6) last *= 10;
  full = cost_scale(last);
  c.x_ticks.push_back({0, "0"});
  for (double v = kCostKnee; v <= last * 1.0001; v *= 10) c.x_ticks.push_back({cost_scale(v) / full, number_label(v)});
}

// The speed axis, logarithmic (offload plans run at 2 tok/s, a B200 at 20,000): from the
// 1-2-5 step at or below the slowest to the one at or above the fastest; 1-2-5 ticks when
// the range is under three decades, decades otherwise.
void speed_axis(ChoiceChart& c, double lo, double hi, double& log_lo, double& log_hi) {
  auto steps = [](double v, bool up) {
    double decade = std::pow(10, std::floor(std::log10(v)));
    for (double m : up ? std::vector<double>{1, 2, 5, 10} : std::vector<double>{10, 5, 2, 1})
      if (up ? m * decade >= v * 0.9999 : m * decade <= v * 1.0001) return m * decade;
    return decade;
  };
  double a = steps(lo, false), b = steps(hi, true);
  if (b <= a) b = steps(a * 1.5, true);
  log_lo = std::log10(a);
  log_hi = std::log10(b);
  bool fine = log_hi - log_lo < 3;
  for (double decade = std::pow(10, std::floor(log_lo)); decade <= b * 1.0001; decade *= 10)
    for (double m : fine ? std::vector<double>{1, 2, 5} : std::vector<double>{1}) {
      double v = m * decade;
      if (v < a * 0.9999 || v > b * 1.0001) continue;
      c.y_ticks.push_back({(std::log10(v) - log_lo) / (log_hi - log_lo), number_label(v)});
    }
}

// The memory axis: from 0 to the 1-2-5 step (x 10^k) at or above the largest figure.
double memory_axis(ChoiceChart& c, double top) {
  if (top <= 0) return 0;
  double decade = std::pow(10, std::floor(std::log10(top)));
  double end = decade * 10, step = decade;
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * decade >= top * 0.9999) {
      end = m * decade;
      break;
    }
  if (end / step < 3) step /= (end / step < 1.5 ? 5 : 2);  // 3 to 10 ticks
  for (double v = 0; v <= end * 1.0001; v += step) c.memory_ticks.push_back({v / end, number_label(std::round(v * 1000) / 1000)});
  return end;
}

}  // namespace chart
}  // namespace

std::vector<std::size_t> pareto_frontier(const std::vector<std::pair<double, double>>& p) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < p.size(); ++i) {
    bool beaten = std::any_of(p.begin(), p.end(), [&](const auto& q) {
      return q.first <= p[i].first && q.second >= p[i].second && (q.first < p[i].first || q.second > p[i].second);
    });
    if (!beaten) out.push_back(i);
  }
  std::stable_sort(out.begin(), out.end(), [&](std::size_t a, std::size_t b) { return p[a].first < p[b].first; });
  return out;
}

ChoiceChart choice_chart(const std::vector<ChartInput>& in) {
  ChoiceChart c;
  c.x_label = "quality cost: KLD-equivalent nats against the unquantized model (log scale; left is better)";
  c.y_label = "forecast decode tok/s (log scale; up is faster)";
  std::vector<const ChartInput*> drawn;
  double top_cost = 0, lo_speed = 0, hi_speed = 0, top_memory = 0, top_bar = 0;
  for (const auto& x : in) {
    if (x.sized) {
      top_bar = std::max({top_bar, x.total_gb, x.budget_gb});
    } else {
      c.unsized.push_back(x.rank);
    }
    if (!x.quality_known) {
      c.left_out.push_back({x.rank, x.no_quality.empty() ? "no quality estimate" : x.no_quality});
      continue;
    }
    if (!(x.tok_s > 0)) {
      c.left_out.push_back({x.rank, !x.sized              ? "no decode-speed forecast: its memory was not sized"
                                    : x.ceiling_tok_s > 0 ? fmt::format("no decode-speed forecast: no measurement calibrates its engine here "
                                                                        "(bandwidth ceiling {:.0f} tok/s)", x.ceiling_tok_s)
                                                          : "no decode-speed forecast: the part's memory bandwidth is not known (--bandwidth)"});
      continue;
    }
    drawn.push_back(&x);
    top_cost = std::max(top_cost, x.high);
    lo_speed = lo_speed > 0 ? std::min(lo_speed, x.tok_s) : x.tok_s;
    hi_speed = std::max(hi_speed, x.tok_s);
    if (x.sized) top_memory = std::max(top_memory, x.total_gb);
  }
  for (const auto& x : in) {
    std::string e = x.engine.empty() ? "none" : x.engine;
    if (std::find(c.engines.begin(), c.engines.end(), e) == c.engines.end()) c.engines.push_back(e);
  }
  c.memory_scale_gb = chart::memory_axis(c, top_bar);
  for (const auto& x : in)
    if (x.sized && c.memory_scale_gb > 0) c.bars.push_back({x.rank, x.total_gb / c.memory_scale_gb, x.budget_gb / c.memory_scale_gb, x.fits});
  if (drawn.empty()) return c;

  double full = 1, log_lo = 0, log_hi = 1;
  chart::quality_axis(c, top_cost, full);
  chart::speed_axis(c, lo_speed, hi_speed, log_lo, log_hi);
  std::vector<std::pair<double, double>> fitting;
  std::vector<std::size_t> fitting_at;  // index into c.points
  for (const ChartInput* x : drawn) {
    ChartPoint p;
    p.rank = x->rank;
    p.engine_slot = static_cast<std::size_t>(std::find(c.engines.begin(), c.engines.end(), x->engine.empty() ? "none" : x->engine) - c.engines.begin());
    p.x = chart::cost_scale(x->cost) / full;
    p.x_low = chart::cost_scale(x->low) / full;
    p.x_high = chart::cost_scale(x->high) / full;
    p.y = (std::log10(x->tok_s) - log_lo) / (log_hi - log_lo);
    p.size = x->sized && top_memory > 0 ? std::sqrt(x->total_gb / top_memory) : 0;  // area follows memory
    p.fits = x->fits;
    if (p.fits) {
      fitting.emplace_back(x->cost, x->tok_s);
      fitting_at.push_back(c.points.size());
    }
    c.points.push_back(p);
  }
  for (std::size_t i : pareto_frontier(fitting)) {
    c.points[fitting_at[i]].frontier = true;
    c.frontier.push_back(c.points[fitting_at[i]].rank);
  }
  c.frontier_note = c.frontier.empty() ? "no candidate fits: no frontier is drawn"
                                       : "the Pareto frontier: fitting candidates no other fitting one beats on both quality cost and speed";
  return c;
}

std::vector<ChartInput> chart_inputs(const Deliberation& d) {
  std::vector<ChartInput> out;
  for (std::size_t i = 0; i < d.candidates.size(); ++i) {
    const Candidate& c = d.candidates[i];
    ChartInput x;
    x.rank = i + 1;
    x.engine = c.engine ? c.engine->id : "";
    const QualityCost& q = c.quality;
    x.quality_known = q.known;
    if (q.known) {
      x.cost = q.total();
      x.low = q.reference ? x.cost : q.low + q.kv_cost;
      x.high = q.reference ? x.cost : q.high + q.kv_cost;
    } else {
      x.no_quality = q.statement.empty() ? "no quality estimate" : q.statement;
    }
    if (c.memory) {
      const Memory& m = *c.memory;
      x.sized = m.bpw > 0;
      x.total_gb = m.total_gb;
      x.budget_gb = m.budget_gb;
      x.fits = m.fits;
      x.tok_s = m.forecast_tok_s;
      x.ceiling_tok_s = m.decode_tok_s;
    }
    out.push_back(x);
  }
  return out;
}

}  // namespace qsel
