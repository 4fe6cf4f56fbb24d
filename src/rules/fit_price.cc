// The price of a tight fit and of an offload plan (include/qsel/rules/fit_price.h).
// The constants are choices stated in docs/quality.md: one accuracy point is about
// 0.04 nats of KLD (the conversion quality.cc uses), a tight fit at most costs a little
// more than that, and two times the decode speed is worth half an accuracy point.
#include "qsel/rules/fit_price.h"

#include <algorithm>
#include <cmath>

namespace qsel {
namespace {

constexpr double kTightCost = 0.05;
constexpr double kOffloadCost = 0.01;
constexpr double kHalvingCost = 0.02;
// A decode speed a chat user does not wait on: about twice reading speed.
constexpr double kComfortableTokS = 10;

}  // namespace

double decode_speed(const Memory& m) {
  if (m.forecast_tok_s > 0) return m.forecast_tok_s;
  return m.compute_tok_s > 0 && m.decode_tok_s > 0 ? std::min(m.decode_tok_s, m.compute_tok_s) : m.decode_tok_s;
}

double tight_cost(const Memory& m) {
  double room = m.budget_gb - m.margin_gb;
  double share = m.margin_gb > 0 ? (m.total_gb - room) / m.margin_gb : 1;
  if (!m.setting.empty()) share = std::max(share, 0.5);
  return kTightCost * std::clamp(share, 0.1, 1.0);
}

double gpu_reference_tok_s(const std::vector<Candidate>& candidates) {
  double best = kComfortableTokS;
  for (const auto& c : candidates)
    if (c.memory && c.memory->fits && !c.memory->placement && c.quality.cost < broken_threshold())
      best = std::max(best, decode_speed(*c.memory));
  return best;
}

double offload_cost(const Memory& m, double reference_tok_s) {
  double cost = m.placement && m.placement->kind == "experts" ? kOffloadCost / 2 : kOffloadCost;
  double f = decode_speed(m);
  if (f > 0 && f < reference_tok_s) cost += kHalvingCost * std::log2(reference_tok_s / f);
  return cost;
}

QualityCost priced_quality(const Candidate& c, double reference_tok_s) {
  QualityCost q = c.quality;
  if (!c.memory) return q;
  const Memory& m = *c.memory;
  bool offloaded = m.fit == "offload" || m.fit == "slow";
  double price = (offloaded ? offload_cost(m, reference_tok_s) : 0) + (m.fit == "tight" ? tight_cost(m) : 0);
  if (price <= 0) return q;
  q.cost = (q.reference ? 0 : q.cost) + price;
  q.measured = q.measured || q.reference;
  q.reference = false;
  return q;
}

}  // namespace qsel
