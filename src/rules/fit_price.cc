// The price of a tight fit and of an offload plan (include/qsel/rules/fit_price.h), on
// the quality model's scale (KLD-equivalent nats). The constants are stated preferences
// (docs/ranking.md, "Quality groups"): a tight fit costs at most about Q4_K_M's whole loss
// on an 8B, and each halving of the decode speed a little under half of that.
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
  share = std::max(share, m.capacity_short);  // a serving fit short of the concurrency asked for
  double cost = kTightCost * std::clamp(share, 0.1, 1.0);
  // Sequences the user asked to serve at once that the KV pool cannot hold are throughput lost:
  // each halving of what runs at once costs what a halving of decode speed costs an offload plan.
  if (m.capacity_asked > 1 && m.sequences < m.capacity_asked)
    cost += kHalvingCost * std::log2(m.capacity_asked / std::max(0.5, static_cast<double>(m.sequences)));
  return cost;
}

double gpu_reference_tok_s(const std::vector<Candidate>& candidates) {
  double best = kComfortableTokS;
  for (const auto& c : candidates)
    if (c.memory && c.memory->fits && !c.memory->placement && c.quality.total() < broken_threshold())
      best = std::max(best, decode_speed(*c.memory));
  return best;
}

double offload_cost(const Memory& m, double reference_tok_s) {
  double cost = m.placement && m.placement->kind == "experts" ? kOffloadCost / 2 : kOffloadCost;
  double f = decode_speed(m);
  if (f > 0 && f < reference_tok_s) cost += kHalvingCost * std::log2(reference_tok_s / f);
  // A RAM side that takes the host's comfort margin is tight, priced as a tight fit on the GPU is.
  if (m.placement && m.placement->ram_tight_share > 0) cost += kTightCost * std::clamp(m.placement->ram_tight_share, 0.1, 1.0);
  return cost;
}

double comfortable_tok_s() { return kComfortableTokS; }

double halving_cost() { return kHalvingCost; }

}  // namespace qsel
