#include "qsel/graph/engines.h"

#include <algorithm>

namespace qsel {

const Record& resolve_engine(const Graph& g, const std::string& query) {
  Resolution r = g.resolve(query, Kind::Engine);
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

}  // namespace qsel
