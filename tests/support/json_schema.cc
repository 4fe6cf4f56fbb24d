#define VALIJSON_USE_EXCEPTIONS 1
// GCC 12 reports a false -Wrestrict inside valijson's json_pointer string handling.
#pragma GCC diagnostic ignored "-Wrestrict"
#include "support/json_schema.h"

#include <map>
#include <memory>

#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include "support/fixtures.h"

namespace qsel::test {

std::vector<std::string> json_schema_errors(const std::string& schema_path, const nlohmann::json& doc) {
  struct Parsed {
    nlohmann::json doc;
    valijson::Schema schema;
  };
  static std::map<std::string, std::unique_ptr<Parsed>> cache;
  auto& p = cache[schema_path];
  if (!p) {
    p = std::make_unique<Parsed>();
    p->doc = nlohmann::json::parse(read_text(schema_path));
    valijson::SchemaParser parser;
    valijson::adapters::NlohmannJsonAdapter adapter(p->doc);
    parser.populateSchema(adapter, p->schema);
  }
  valijson::Validator validator;
  valijson::ValidationResults results;
  valijson::adapters::NlohmannJsonAdapter target(doc);
  validator.validate(p->schema, target, &results);
  std::vector<std::string> out;
  valijson::ValidationResults::Error e;
  while (results.popError(e)) out.push_back(e.description);
  return out;
}

}  // namespace qsel::test
