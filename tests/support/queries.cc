#include "support/queries.h"

#include "qsel/graph/embedded_graph.h"
#include "qsel/model/model_spec.h"

namespace qsel::test {

Query corpus_query(const std::string& gpu, const std::string& model, std::vector<std::string> engines) {
  const Graph& g = embedded_graph();
  Query q;
  q.accelerator = g.find(gpu);
  q.target = q.accelerator ? g.find(q.accelerator->str("target")) : nullptr;
  if (!model.empty()) q.model = model_from_record(*g.find(model));
  q.engines = std::move(engines);
  return q;
}

Deliberation ask_corpus(const std::string& gpu, const std::string& model, std::vector<std::string> engines) {
  return deliberate(embedded_graph(), corpus_query(gpu, model, std::move(engines)));
}

}  // namespace qsel::test
