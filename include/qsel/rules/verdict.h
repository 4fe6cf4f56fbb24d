// One format on one target, as the rule engine sees it: native, emulated,
// unsupported, contested or unknown. explain and recommend both read it from the
// same Deliberation, so they cannot disagree.
#pragma once
#include <string>
#include <vector>

#include "qsel/rules/deliberation.h"

namespace qsel {

struct Verdict {
  std::string value;                 // native | dequant | emulated | unsupported | contested | unknown
  std::vector<std::string> reasons;  // one line each, citing records
};

Verdict verdict_for(const Deliberation& d, const Record& format);

// The parts (accelerator records) built on the query's target, or just the query's part.
std::vector<const Record*> parts_of(const Deliberation& d);

}  // namespace qsel
