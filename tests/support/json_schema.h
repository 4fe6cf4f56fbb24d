// Validating a JSON document against a JSON Schema file the tests keep (valijson), for the
// tests that check an output format against its published schema (SARIF, GitLab Code Quality).
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace qsel::test {

// The errors of `doc` against the schema at `schema_path` (parsed once per path); none when valid.
std::vector<std::string> json_schema_errors(const std::string& schema_path, const nlohmann::json& doc);

}  // namespace qsel::test
