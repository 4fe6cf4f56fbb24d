// Record readers shared by the rule units (internal to src/rules).
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "qsel/graph/graph.h"
#include "qsel/graph/selector.h"
#include "qsel/rules/deliberation.h"
#include "qsel/rules/rules.h"

namespace qsel::rule_util {

bool contains(const std::vector<std::string>& v, const std::string& s);
void add_unique(std::vector<std::string>& v, const std::string& s);

// The target has every tensor-core precision the format needs natively.
bool target_has_precisions(const Record& target, const Record& format);
bool weight_only(const Record& format);
bool is_baseline(const Record& format);

// The engine runs on this target at all (runs_on selector, platforms).
bool engine_runs_on(const Record& engine, const Record& target);

// A kernel record's exclusions that name this format on this target, as reasons.
std::vector<std::string> kernel_exclusions(const Record& kernel, const std::string& format, const std::string& target);
// Every kernel record in the corpus that excludes this format on this target: "kernel-id: reason".
std::vector<std::pair<const Record*, std::string>> exclusions_anywhere(const Graph& g, const std::string& format,
                                                                      const std::string& target);

// Does a flag list hold for the query? Unknown flags make it conditional: `condition` names them.
bool flags_hold(const nlohmann::json& flags, const Query& q, std::string* condition);


}  // namespace qsel::rule_util
