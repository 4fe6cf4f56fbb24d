// The one table of id-valued fields: which JSON paths of which kind hold record
// ids, what the edge is called, and which kinds it may point at. The graph builds
// its edges from it and lint's dangling-reference check walks it.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "qsel/loader/record.h"

namespace qsel {

struct ReferenceField {
  Kind from;
  std::string pattern;     // JSON pointer with "*" for any array index or key
  std::string label;       // edge label, e.g. "native-on"
  std::vector<Kind> to;    // kinds the id may name (empty: any kind)
  std::vector<std::string> parts = {};  // `pattern` split at '/', filled in by reference_fields()
};

const std::vector<ReferenceField>& reference_fields();

struct FoundReference {
  const ReferenceField* field;
  std::string pointer;  // concrete pointer of the id value
  std::string id;
};

// Every id-valued value in `r`, in document order of the table.
std::vector<FoundReference> references_of(const Record& r);

}  // namespace qsel
