// Target selectors: the `runs_on`, `when`, `match` and `applies.targets` objects
// ({targets, not_targets, min_cc, max_cc, vendors, platforms, families}). Every
// condition given must hold; an absent or empty selector matches every target.
// Matching reads only the target record's fields, so it stays data-driven.
#pragma once
#include <vector>

#include <nlohmann/json.hpp>

#include "qsel/graph/graph.h"

namespace qsel {

// True when `target` (a target record) satisfies every condition of `selector`.
// min_cc/max_cc need the target's compute_capability: a target without one fails them.
bool selector_matches(const nlohmann::json& selector, const Record& target);

// The target records of `g` that `selector` matches, sorted by id.
std::vector<const Record*> matching_targets(const nlohmann::json& selector, const Graph& g);

}  // namespace qsel
