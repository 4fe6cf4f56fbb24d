#include "browse_args.h"

#include <algorithm>

#include <fmt/format.h>

#include "qsel/core/text.h"

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

std::vector<std::string> schema_enum(Context& ctx, const std::string& kind, const std::string& pointer) {
  const auto& schemas = ctx.schemas();
  auto it = schemas.find(kind);
  nlohmann::json::json_pointer p(pointer);
  if (it == schemas.end() || !it->second.contains(p)) return {};
  return it->second.at(p).get<std::vector<std::string>>();
}

void require_one_of(const std::string& value, const std::vector<std::string>& allowed, const std::string& what) {
  if (allowed.empty() || std::find(allowed.begin(), allowed.end(), value) != allowed.end()) return;
  auto near = nearest(to_lower(value), allowed, 1);
  throw UsageError(fmt::format("unknown {} \"{}\"; {}", what, value,
                               near.empty() ? fmt::format("use one of {}", fmt::join(allowed, ", "))
                                            : fmt::format("did you mean \"{}\"?", near[0])));
}

}  // namespace qsel
