// The price of how a candidate fits, on the quality scale (docs/quality.md, "The
// ranking order"): a tight fit and a plan with part of the model in system RAM
// cost KLD-equivalent nats, added to the measured cost before its band is read.
#pragma once

#include <vector>

#include "qsel/rules/deliberation.h"
#include "qsel/rules/quality.h"

namespace qsel {

// Decode tok/s as ranking reads it: the calibrated forecast, else the lower of the
// bandwidth and compute ceilings; 0 when nothing is known.
double decode_speed(const Memory& m);

// A tight fit: up to 0.05 (about one accuracy point), in proportion to the share of the
// headroom margin it takes (at least a tenth of it; half where it fits only with a lower
// serving setting such as vLLM's --max-num-seqs).
double tight_cost(const Memory& m);

// What an offload plan's speed is measured against: the fastest candidate that fits on
// the GPU alone and is not broken, and never less than 10 tok/s.
double gpu_reference_tok_s(const std::vector<Candidate>& candidates);

// Part of the model in system RAM: 0.01 (0.005 for an MoE's experts, whose active share
// alone is read from RAM), plus 0.02 per halving of the plan's decode speed below
// `reference_tok_s`.
double offload_cost(const Memory& m, double reference_tok_s);

// A decode speed a chat user does not wait on (about twice reading speed): 10 tok/s.
double comfortable_tok_s();

// What a halving of decode speed costs on the quality scale: 0.02.
double halving_cost();


}  // namespace qsel
