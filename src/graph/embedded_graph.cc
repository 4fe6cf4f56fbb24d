#include "qsel/graph/embedded_graph.h"

#include "qsel/loader/corpus_blob.h"

namespace qsel {

const Graph& embedded_graph() {
  static const Graph* graph = new Graph(std::move(decode_corpus(embedded_blob(), false).corpus));  // lives until exit
  return *graph;
}

}  // namespace qsel
