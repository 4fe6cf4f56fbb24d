// Engines by name, and the support matrices that belong to one.
#pragma once
#include <string>
#include <vector>

#include "qsel/graph/graph.h"

namespace qsel {

// An engine id or alias; a UsageError with "did you mean" otherwise.
const Record& resolve_engine(const Graph& g, const std::string& query);

// The matrix records of an engine: the one its `matrix` field names first, then
// every matrix whose `engine` is it.
std::vector<const Record*> matrices_of(const Graph& g, const Record& engine);

}  // namespace qsel
