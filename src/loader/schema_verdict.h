// A JSON Schema compiled to answer one question fast: is this document
// certainly valid? valijson (strict types) is the authority and the only source
// of messages; this answers "yes" only where valijson must answer "yes" too,
// and "ask valijson" for everything else. Lint asks it first, so valijson runs
// only on the records that may be invalid.
//
// It knows the keywords our schemas use (type, enum, const, properties,
// required, additionalProperties, propertyNames, minProperties, items,
// minItems, maxItems, uniqueItems, minLength, maxLength, minimum, maximum,
// exclusiveMinimum, exclusiveMaximum, allOf, anyOf, $ref into the same document,
// format other than date and time). A schema using any other keyword does not
// compile. `oneOf`, `not`, `if`, `pattern` and the date formats compile to
// "ask valijson" wherever a document reaches them: proving one branch of a
// oneOf invalid is valijson's job.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace qsel {

class SchemaVerdict {
 public:
  // Nothing when the schema uses a keyword, or a form of one, this does not know.
  static std::optional<SchemaVerdict> compile(const nlohmann::json& schema);

  // True only when valijson would accept `doc`; false means "ask valijson".
  bool certainly_valid(const nlohmann::json& doc) const;

 private:
  struct Node {
    bool ask = false;       // oneOf, not, if, pattern, date formats: valijson decides
    unsigned types = 0;     // bit per JSON type; 0: any
    std::optional<std::uint64_t> min_length, max_length, min_items, max_items, min_properties;
    std::optional<double> minimum, maximum, exclusive_minimum, exclusive_maximum;
    bool has_enum = false;
    std::vector<nlohmann::json> enum_values;
    std::optional<nlohmann::json> const_value;
    bool unique_items = false;
    std::vector<std::string> required;
    std::vector<std::pair<std::string, std::size_t>> properties;  // sorted by name
    bool no_additional = false;                 // additionalProperties: false
    std::optional<std::size_t> additional, items, property_names, ref;
    std::vector<std::size_t> all_of, any_of;
  };
  class Compiler;
  bool valid(std::size_t node, const nlohmann::json& value, int hops, std::size_t& budget) const;
  std::vector<Node> nodes_;
  std::size_t root_ = 0;
};

}  // namespace qsel
