// Matching gotcha records against one format x target x engine x kernel x flags.
#pragma once
#include <optional>

#include "qsel/rules/deliberation.h"

namespace qsel {

struct GotchaScope {
  const Record* format = nullptr;
  const Record* target = nullptr;
  const Record* engine = nullptr;
  const Record* kernel = nullptr;
  const Record* accelerator = nullptr;
  std::string backend;  // the candidate's backend (applies.backends); "" matches no backend list
};

// The warning a gotcha raises in this scope, or nothing when its selectors do not match.
// Selectors on flags the query cannot observe make the warning conditional.
std::optional<Warning> match_gotcha(const Graph& g, const Record& gotcha, const GotchaScope& scope, const Query& q);

// Every matching gotcha, blockers first, silent ones first within a severity.
std::vector<Warning> matching_gotchas(const Graph& g, const GotchaScope& scope, const Query& q);

int severity_rank(const std::string& severity);  // blocker 0, major 1, minor 2

}  // namespace qsel
