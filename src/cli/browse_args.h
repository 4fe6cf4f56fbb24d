// Arguments the browse commands share: a GPU (detect/resolve_gpu.h), an engine
// (graph/engines.h), and the values a schema enum allows (for core's
// require_one_of). Each resolves or fails with a one-line usage error
// ("did you mean …"), exit code 2.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "qsel/detect/resolve_gpu.h"
#include "qsel/graph/engines.h"
#include "qsel/cli/context.h"

namespace qsel {

// The `enum` at `pointer` inside the schema of `kind` (e.g. "/properties/regime/enum").
std::vector<std::string> schema_enum(Context& ctx, const std::string& kind, const std::string& pointer);

}  // namespace qsel
