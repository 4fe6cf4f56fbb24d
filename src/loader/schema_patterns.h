// The `pattern` keywords of a schema that qsel checks itself, with the linear
// matcher, instead of leaving them to valijson (whose std::regex was a tenth of
// lint's time, and reads classes as bytes, so "[†]" never matched a dagger).
//
// A pattern is taken out of the schema valijson compiles only where that cannot
// change any other verdict: on a node reached from the root through
// `properties`, `additionalProperties`, `items` and `$ref` alone, and never
// under anyOf, oneOf, not, if/then/else, contains or any other keyword whose
// outcome can depend on it. There a record is valid exactly when valijson
// accepts it without the pattern and the pattern holds at every value the walk
// reaches. Patterns the matcher cannot compile stay with valijson.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "qsel/core/linear_regex.h"

namespace qsel {

class SchemaPatterns {
 public:
  // Plans from `schema`, and removes the patterns it takes from `for_valijson`
  // (a copy of `schema`).
  SchemaPatterns(const nlohmann::json& schema, nlohmann::json& for_valijson);

  struct Failure {
    std::string pointer;  // the value that does not match
    std::string pattern;
  };
  // A value that fails a taken pattern (the first in key order), if any.
  std::optional<Failure> check(const nlohmann::json& record) const;

  std::size_t taken() const { return taken_; }

 private:
  struct Node {
    std::optional<LinearRegex> regex;
    std::string pattern;
    std::map<std::string, std::size_t, std::less<>> properties;
    std::optional<std::size_t> additional, items;
    bool relevant = false;  // a taken pattern here or below
  };
  std::vector<Node> nodes_;
  std::size_t taken_ = 0;

  bool walk(std::size_t node, const nlohmann::json& value, std::optional<Failure>& out) const;
  friend class PatternPlanner;
};

}  // namespace qsel
