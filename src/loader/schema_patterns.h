// The `pattern` keywords of a schema, checked with RE2 (linear time, UTF-8
// classes) instead of valijson's std::regex (which was a tenth of lint's time,
// backtracks, and reads classes as bytes, so "[†]" never matched a dagger).
//
// A pattern is taken out of the schema valijson compiles only where that cannot
// change any other verdict: on a node reached from the root through
// `properties`, `additionalProperties`, `items`, `allOf`, `then`, `else` and
// `$ref` alone (a `then` or `else` applies where valijson says the `if` does
// or does not hold), and never under anyOf, oneOf, not, an `if` itself,
// contains or any other keyword whose outcome can depend on it. There a record is valid exactly when valijson
// accepts it without the pattern and the pattern holds at every value the walk
// reaches. Every pattern is checked here: a schema with a pattern RE2 cannot
// compile, or one in a place the walk cannot take it from (under anyOf, or a
// patternProperties key), is refused with the pointer and the reason, so
// valijson never evaluates a regular expression.
#pragma once
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>


namespace re2 { class RE2; }
namespace valijson { class Schema; }

namespace qsel {

class SchemaPatterns {
 public:
  // Plans from `schema`, and removes the patterns it takes from `for_valijson`
  // (a copy of `schema`). Throws std::runtime_error for a pattern it cannot take.
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
    std::shared_ptr<const re2::RE2> regex;
    std::string pattern;
    std::map<std::string, std::size_t, std::less<>> properties;
    std::optional<std::size_t> additional, items;
    std::vector<std::size_t> all_of;  // allOf branches: each applies to the same value
    struct Conditional {             // if/then/else: `when` (valijson) picks which branch applies
      std::shared_ptr<const valijson::Schema> when;
      std::optional<std::size_t> then, otherwise;
    };
    std::vector<Conditional> conditionals;
    bool relevant = false;  // a taken pattern here or below
  };
  std::vector<Node> nodes_;
  std::size_t taken_ = 0;

  bool walk(std::size_t node, const nlohmann::json& value, std::optional<Failure>& out) const;
  friend class PatternPlanner;
};

}  // namespace qsel
