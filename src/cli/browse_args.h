// Arguments the browse commands share: a GPU (gpu_arg.h), an engine, and
// values that must come from a schema enum. Each resolves or fails with a
// one-line usage error ("did you mean …"), exit code 2.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "qsel/detect/resolve_gpu.h"
#include "qsel/cli/context.h"

namespace qsel {

// An engine id or alias.
const Record& resolve_engine(const Graph& g, const std::string& query);

// The matrix records of an engine: the one its `matrix` field names first, then
// every matrix whose `engine` is it.
std::vector<const Record*> matrices_of(const Graph& g, const Record& engine);

// The `enum` at `pointer` inside the schema of `kind` (e.g. "/properties/regime/enum").
std::vector<std::string> schema_enum(Context& ctx, const std::string& kind, const std::string& pointer);

// Fails unless `value` is one of `allowed`: "unknown WHAT "x"; did you mean "y"?".
void require_one_of(const std::string& value, const std::vector<std::string>& allowed, const std::string& what);

}  // namespace qsel
