// The result of `qsel inspect` as JSON (schemas/output/inspect.schema.json):
// what was read, the model's shape, the shipped format and how it was matched,
// and the measured sizes. Renderers format it; they never compute.
#pragma once
#include <optional>

#include <nlohmann/json.hpp>

#include "qsel/model/checkpoint_format.h"
#include "qsel/model/model_spec.h"

namespace qsel {

nlohmann::ordered_json inspect_json(const Checkpoint& c, const CheckpointAnalysis& a, const ModelSpec* model,
                                    const std::string& model_error);

}  // namespace qsel
