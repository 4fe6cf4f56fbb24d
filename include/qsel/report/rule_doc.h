// A lint rule's documentation, rendered from the registry: for a terminal, as
// JSON, and as its docs/lint/<CODE>.md page.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "qsel/lint/rule.h"
#include "qsel/report/style.h"

namespace qsel {

// The rule's doc for a terminal (what `qsel explain CODE` prints).
std::string render_rule_doc(const RuleInfo& rule, const Style& style);

// The rule's doc as JSON: {code, name, severity, fixable, summary, doc: {what, why, example, example_output, fix}}.
nlohmann::ordered_json rule_doc_json(const RuleInfo& rule);

// The rule's page docs/lint/<CODE>.md, byte for byte.
std::string render_rule_markdown(const RuleInfo& rule);

// `qsel explain CODE`: the topic object for a lint code (schemas/output/explain.schema.json,
// kind "lint-rule"): its doc for a terminal in `text`, and as JSON in `rule` with its url.
nlohmann::ordered_json lint_rule_topic(const RuleInfo& rule, const Style& style);

}  // namespace qsel
