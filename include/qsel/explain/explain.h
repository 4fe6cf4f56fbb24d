// What `qsel explain` says about a topic, as JSON built from the records and the
// rule engine (renderers format it). Format x target answers reuse deliberate().
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "qsel/graph/graph.h"

namespace qsel {

// Everything every record kind says about one format on one target (or part):
// verdict, matrix cells, kernels per engine, kernel-record constraints,
// conflicts, benchmarks, gotchas, rules. `engines` restricts (empty: all).
nlohmann::ordered_json explain_format_on(const Graph& g, const Record& format, const Record& target,
                                         const Record* accelerator, const std::vector<std::string>& engines);

// A record with no --on: its own summary, per kind.
nlohmann::ordered_json explain_record(const Graph& g, const Record& r);

// A selection rule: its page, the records behind it.
nlohmann::ordered_json explain_rule(const Graph& g, const std::string& id);

}  // namespace qsel
