// The corpus compiled into this binary, as a graph.
#pragma once

#include "qsel/graph/graph.h"

namespace qsel {

// The embedded corpus as a graph, built once per process straight from the blob
// (no copy of the decoded corpus) and never torn down.
const Graph& embedded_graph();

}  // namespace qsel
