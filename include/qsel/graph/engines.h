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

// A per-model table (`axis: model`): its rows are model families, not targets; it restricts
// formats for the models it names and says nothing about a part.
bool model_axis(const Record& matrix);

}  // namespace qsel
