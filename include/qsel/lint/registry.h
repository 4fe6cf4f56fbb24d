// The one table of lint rules. `qsel lint --list-rules`, SARIF, the docs in
// docs/lint/ and `qsel explain CODE` all read it.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "qsel/lint/check.h"
#include "qsel/lint/rule.h"
#include "qsel/report/style.h"

namespace qsel {

// Every rule, sorted by code.
const std::vector<RuleInfo>& rules();

// The graph checks (rules with a run function), in code order.
const std::vector<Check>& checks();

// A rule by code ("QS004", case-insensitive) or name ("kquant-group-size"); null when none.
const RuleInfo* find_rule(std::string_view code_or_name);

// Closest codes/names to an unknown one, for "did you mean".
std::vector<std::string> suggest_rules(std::string_view code_or_name);

// The rule's doc for a terminal (what `qsel explain CODE` prints).
std::string render_rule_doc(const RuleInfo& rule, const Style& style);

// The rule's doc as JSON: {code, name, severity, fixable, summary, doc: {what, why, example, example_output, fix}}.
nlohmann::ordered_json rule_doc_json(const RuleInfo& rule);

// The rule's page docs/lint/<CODE>.md, byte for byte.
std::string render_rule_markdown(const RuleInfo& rule);

}  // namespace qsel
