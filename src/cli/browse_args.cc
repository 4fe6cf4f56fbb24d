#include "browse_args.h"

#include <algorithm>

#include <fmt/format.h>

#include "qsel/core/text.h"

namespace qsel {
std::vector<std::string> schema_enum(Context& ctx, const std::string& kind, const std::string& pointer) {
  const auto& schemas = ctx.schemas();
  auto it = schemas.find(kind);
  nlohmann::json::json_pointer p(pointer);
  if (it == schemas.end() || !it->second.contains(p)) return {};
  return it->second.at(p).get<std::vector<std::string>>();
}

}  // namespace qsel
