// The JSON contract of recommend (schemas/output/recommend.schema.json), built
// from a Deliberation; the document starts with schema_version.
#pragma once
#include <nlohmann/json.hpp>

#include "qsel/rules/deliberation.h"

namespace qsel {

nlohmann::ordered_json candidate_json(const Candidate& c, std::size_t rank);
nlohmann::ordered_json recommend_json(const Deliberation& d);

}  // namespace qsel
