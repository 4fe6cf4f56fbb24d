#include "qsel/graph/engines.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "qsel/core/errors.h"
#include "qsel/core/text.h"

namespace qsel {

const Record& resolve_engine(const Graph& g, const std::string& query) {
  Resolution r = g.resolve(query, Kind::Engine);
  if (!r && r.suggestions.empty() && r.ambiguous.empty()) {  // no near name: the engines are few, so list them
    std::vector<std::string> ids;
    for (const Record* e : g.of_kind(Kind::Engine)) ids.push_back(e->id);
    throw UsageError(fmt::format("unknown engine {}; the engines are {}", quote_value(query), fmt::join(ids, ", ")));
  }
  if (!r) throw_unknown("engine", query, r);
  return *r.record;
}

std::vector<const Record*> matrices_of(const Graph& g, const Record& engine) {
  std::vector<const Record*> out;
  if (const Record* m = g.find(engine.str("matrix")); m && m->kind == Kind::Matrix) out.push_back(m);
  for (const Record* m : g.of_kind(Kind::Matrix))
    if (m->str("engine") == engine.id && std::find(out.begin(), out.end(), m) == out.end()) out.push_back(m);
  return out;
}

bool model_axis(const Record& matrix) { return matrix.str("axis") == "model"; }

}  // namespace qsel
