// The one table of lint rules. `qsel lint --list-rules`, SARIF, the docs in
// docs/lint/ and `qsel explain CODE` all read it (rendered by report/rule_doc.h).
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "qsel/lint/check.h"
#include "qsel/lint/rule.h"

namespace qsel {

// Every rule, sorted by code.
const std::vector<RuleInfo>& rules();

// The graph checks (rules with a run function), in code order.
const std::vector<Check>& checks();

// A rule by code ("QS004", case-insensitive) or name ("kquant-group-size"); null when none.
const RuleInfo* find_rule(std::string_view code_or_name);

// Closest codes/names to an unknown one, for "did you mean".
std::vector<std::string> suggest_rules(std::string_view code_or_name);

}  // namespace qsel
