// The versioned contract of every JSON document qsel prints with --format json:
// the one schema_version number, the lint docs' base URL, and the helper that
// puts the version first. The schemas live in schemas/output/; docs/json.md
// states the policy (the version changes only when a key is removed or retyped).
#pragma once
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace qsel {

// The value of "schema_version" in every JSON output; schemas/output/*.schema.json
// require exactly this number.
constexpr int kOutputSchemaVersion = 1;

// Where each lint code's page lives: base + "QS004.md". lint JSON's "url" and
// SARIF's helpUri both use it.
constexpr std::string_view kLintDocBaseUrl = "https://github.com/qsel-project/qsel/blob/main/docs/lint/";

inline std::string lint_doc_url(std::string_view code) {
  return std::string(kLintDocBaseUrl) + std::string(code) + ".md";
}

// `doc` (an object) with "schema_version" as its first key; a document that
// already starts with it is returned unchanged.
inline nlohmann::ordered_json versioned(const nlohmann::ordered_json& doc) {
  if (!doc.empty() && doc.begin().key() == "schema_version") return doc;
  nlohmann::ordered_json out = {{"schema_version", kOutputSchemaVersion}};
  for (const auto& [k, v] : doc.items())
    if (k != "schema_version") out[k] = v;
  return out;
}

}  // namespace qsel
