// Sizing one candidate of a Deliberation: the sizing unit's memory model at the
// query's GPUs, context, batch and KV dtype (src/rules/compute_memory.cc).
#pragma once
#include <functional>
#include <string>

#include "qsel/rules/deliberation.h"

namespace qsel {

// "bf16" unless --kv-cache names a dtype.
std::string default_kv_dtype(const Query& q);
// The memory model of one candidate at a KV dtype (Rule 6 re-sizes with 8-bit KV).
Memory candidate_memory(const Deliberation& d, const Candidate& c, const std::string& kv_dtype);
// The smallest tensor-parallel count (2, 4, 8 … 64) above the query's at which the
// candidate fits; 0 when none does (or it cannot be sized).
int smallest_count(const Deliberation& d, const Candidate& c);
// The fewest GPUs of this kind within one node (more than asked, at most 8) at which a candidate
// `eligible` accepts fits, and the first such candidate in ranked order; {0, nullptr} when none
// does or the part is not one users add more of (rule_util::takes_more_parts).
struct MoreParts {
  int count = 0;
  const Candidate* candidate = nullptr;
};
MoreParts fewest_more_parts(const Deliberation& d, const std::function<bool(const Candidate&)>& eligible);

}  // namespace qsel
