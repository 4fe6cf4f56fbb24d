// What a lint rule is: a stable code, a kebab-case name that names the defect,
// a default severity, whether it can fix, and a doc with fixed sections.
#pragma once
#include <string_view>

#include "qsel/core/problem.h"

namespace qsel {

struct RuleDoc {
  std::string_view what;            // What it flags
  std::string_view why;             // Why it matters
  std::string_view example;         // Example: the offending YAML
  std::string_view example_output;  // Example: the line qsel prints for it
  std::string_view fix;             // How to fix
};

struct RuleInfo {
  std::string_view code;     // "QS004"
  std::string_view name;     // "kquant-group-size"
  Severity severity;         // default severity
  bool fixable;              // --fix can repair it (where safe)
  std::string_view summary;  // one sentence: --list-rules, SARIF shortDescription
  RuleDoc doc;
};

}  // namespace qsel
