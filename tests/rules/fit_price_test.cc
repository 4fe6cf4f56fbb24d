// The price of how a candidate fits (fit_price.h): a tight fit costs in proportion to
// the margin it takes, an offload plan a fixed amount plus 0.02 per halving of speed
// against the fastest fit on the GPU alone, and a comfortable fit on the GPU nothing.
#include <catch2/catch.hpp>

#include "qsel/rules/fit_price.h"

using namespace qsel;

namespace {

Memory on_gpu(double total, double budget, double margin, double tok_s) {
  Memory m;
  m.fits = true;
  m.total_gb = total;
  m.budget_gb = budget;
  m.margin_gb = margin;
  m.fit = budget - total >= margin ? "yes" : "tight";
  m.forecast_tok_s = tok_s;
  return m;
}

Memory offload_memory(const std::string& kind, double tok_s) {
  Memory m;
  m.fits = true;
  m.fit = "offload";
  m.placement = Placement{};
  m.placement->kind = kind;
  m.forecast_tok_s = tok_s;
  return m;
}

Candidate with(Memory m, double cost) {
  Candidate c;
  c.memory = m;
  c.quality.cost = cost;
  c.quality.measured = true;
  return c;
}

}  // namespace

TEST_CASE("fit_price: a tight fit costs in proportion to the margin it takes", "[rules][fit_price]") {
  // 1 GiB margin on a 25.5 GB budget: 24.5 GB leaves it whole, 25.4 takes 90% of it.
  CHECK(tight_cost(on_gpu(24.6, 25.5, 1.0, 30)) == Approx(0.05 * 0.1));
  CHECK(tight_cost(on_gpu(25.0, 25.5, 1.0, 30)) == Approx(0.05 * 0.5));
  CHECK(tight_cost(on_gpu(25.5, 25.5, 1.0, 30)) == Approx(0.05));
  Memory seqs = on_gpu(24.0, 25.5, 1.0, 30);
  seqs.setting = "--max-num-seqs 16";  // fits only with a lower setting: at least half the price
  CHECK(tight_cost(seqs) == Approx(0.025));
}

TEST_CASE("fit_price: an offload plan pays per halving of speed against the GPU-only answer", "[rules][fit_price]") {
  CHECK(offload_cost(offload_memory("layers", 40), 40) == Approx(0.01));
  CHECK(offload_cost(offload_memory("layers", 10), 40) == Approx(0.01 + 0.02 * 2));
  CHECK(offload_cost(offload_memory("experts", 20), 40) == Approx(0.005 + 0.02));
  // Faster than the reference: no speed term.
  CHECK(offload_cost(offload_memory("layers", 60), 40) == Approx(0.01));
}

TEST_CASE("fit_price: the reference is the fastest non-broken fit on the GPU, at least 10 tok/s", "[rules][fit_price]") {
  std::vector<Candidate> cs = {with(on_gpu(10, 25, 1, 44), 0.03), with(on_gpu(8, 25, 1, 90), 0.6),
                               with(offload_memory("layers", 120), 0.01)};
  CHECK(gpu_reference_tok_s(cs) == Approx(44));  // the broken 90 tok/s and the offload plan do not count
  CHECK(gpu_reference_tok_s({with(on_gpu(8, 25, 1, 90), 0.6)}) == Approx(10));
  CHECK(gpu_reference_tok_s({}) == Approx(10));
}

TEST_CASE("fit_price: sequences asked for at once that the KV pool cannot hold cost per halving, none as half a sequence", "[rules][fit_price]") {
  Memory held = on_gpu(60, 75, 2, 30);
  held.fit = "tight";
  held.capacity_asked = 32;
  held.sequences = 8;
  held.capacity_short = 1 - 8.0 / 32;
  CHECK(tight_cost(held) == Approx(0.05 * 0.75 + 0.02 * 2));
  Memory none = held;
  none.sequences = 0;
  none.capacity_short = 1;
  CHECK(tight_cost(none) == Approx(0.05 + 0.02 * 6));
  // The default concurrency (nothing asked) prices only the tight share.
  Memory unasked = none;
  unasked.capacity_asked = 0;
  CHECK(tight_cost(unasked) == Approx(0.05));
}
