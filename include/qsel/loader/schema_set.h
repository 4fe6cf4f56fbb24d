// The JSON Schemas (one per record kind) and validation of a record against them.
// Validation runs through valijson's nlohmann adapter; the messages are our own,
// naming the JSON path inside the record and what was expected.
#pragma once
#include <map>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "qsel/core/problem.h"
#include "qsel/loader/marks.h"

namespace qsel {

class SchemaSet {
 public:
  // kind -> schema document. Throws std::runtime_error naming the kind if a schema is unusable.
  explicit SchemaSet(const std::map<std::string, nlohmann::json>& schemas);
  ~SchemaSet();
  SchemaSet(const SchemaSet&) = delete;
  SchemaSet& operator=(const SchemaSet&) = delete;

  bool has_kind(const std::string& kind) const;
  const nlohmann::json& schema(const std::string& kind) const;

  // QS001 problems for `record` of `kind`, located through `marks`.
  Problems validate(const std::string& kind, const nlohmann::json& record, const Marks& marks,
                    const std::string& file) const;


 private:
  struct Compiled;
  std::map<std::string, std::unique_ptr<Compiled>> compiled_;
};

// Why `value` at `pointer` fails the schema node `node` (resolved within `root`),
// as "expected …" text; empty when no single keyword explains it.
std::string explain_violation(const nlohmann::json& root, const nlohmann::json& node, const nlohmann::json& value);

}  // namespace qsel
