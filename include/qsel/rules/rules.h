// The seven selection rules of doc 23, as a table of small units. Each unit
// reads records and adds facts, exclusions, ranking keys, warnings and
// citations to a Deliberation. No record id appears in rule code.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "qsel/rules/deliberation.h"

namespace qsel {

struct SelectionRule {
  const char* id;     // "rule-1"
  const char* title;  // one line; the full page is docs/rules/<id>.md, embedded (rule_doc)
  void (*apply)(Deliberation&);
  // The records the rule reads, for `qsel explain rule-N`.
  std::vector<const Record*> (*records)(const Graph&);
};

// In the order deliberate() applies them (not numeric order).
const std::vector<SelectionRule>& selection_rules();
const SelectionRule* find_selection_rule(std::string_view id);
// The rule's page (statement, what qsel does, example), or empty when none is embedded.
std::string rule_doc(std::string_view id);

// Formats an engine can serve: its `formats` plus every format its kernel_selection names.
std::vector<std::string> served_formats(const Record& engine);

// The units, callable alone (each has its own tests).
void enumerate_candidates(Deliberation& d);
void apply_rule1(Deliberation& d);
void apply_rule2(Deliberation& d);
void apply_rule3(Deliberation& d);
void apply_rule4(Deliberation& d);
void apply_rule5(Deliberation& d);
void apply_rule6(Deliberation& d);
void apply_rule7(Deliberation& d);
void apply_model_support(Deliberation& d);
void apply_releases(Deliberation& d);
void compute_memory(Deliberation& d);
void fit_hints(Deliberation& d);    // after ranking: when nothing fits, the --count that would
void floor_hints(Deliberation& d);  // after ranking: when #1 is broken, what would change it
void tradeoff_notes(Deliberation& d);  // after ranking: the best full-GPU answer beside the best offload one
void restriction_lead(Deliberation& d);  // after ranking: #1 is no deployment — say so first, and what runs well
void nothing_fits_lead(Deliberation& d);  // after ranking: nothing fits — say so first, and the smallest changes that fit
void rank_candidates(Deliberation& d);
void assign_rows(Deliberation& d);  // after ranking: which candidates share a table row (rows.cc)
void backend_builds(Deliberation& d);  // after ranking: the build of each candidate's backend (engines compiled per backend)
// The decision table's step names (docs/ranking.md): part "eligibility" or "tie-breaks".
std::vector<std::string> ranking_step_names(const std::string& part);

}  // namespace qsel
