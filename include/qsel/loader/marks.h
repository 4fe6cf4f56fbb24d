// Source marks for every node of a parsed record, keyed by JSON pointer
// ("" is the document root, "/bpw/measured/0/value" a nested value).
#pragma once
#include <string>
#include <unordered_map>

#include "qsel/core/problem.h"

namespace qsel {

struct Marks {
  std::unordered_map<std::string, Mark> value;  // where each value starts
  std::unordered_map<std::string, Mark> key;    // where the key naming it starts (objects only)

  // The mark of `pointer`, or of its nearest ancestor that has one.
  Mark at(std::string pointer) const;
  // The key mark of `pointer` when it has one, else its value mark.
  Mark key_or_value(const std::string& pointer) const;
};

// Appends one reference token to a JSON pointer, escaping '~' and '/'.
std::string pointer_child(const std::string& parent, const std::string& token);

}  // namespace qsel
