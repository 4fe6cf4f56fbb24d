// What an answer rests on: the records behind a candidate, and which of them a
// curator has not reviewed (drafts) or no reader can trace (unverified rows).
#pragma once
#include <string>
#include <vector>

#include "qsel/rules/deliberation.h"

namespace qsel {

struct RestsOn {
  std::vector<std::string> records;     // every record behind the candidate, each once
  std::vector<std::string> draft;       // those with status draft
  std::vector<std::string> unverified;  // benchmark rows graded unverified
  std::string statement;                // "rests on 9 records, 3 of them drafts (…); 1 unverified measurement (…): …"
};

// The format, engine and kernel; the part and its target; the model record; the
// matrices whose cells admitted it; the records its evidence cites and the quality
// rows measured on this model.
RestsOn rests_on(const Deliberation& d, const Candidate& c);

// The statement for a list of records (the ids, in order, each once).
RestsOn rests_on_records(const Graph& g, const std::vector<std::string>& ids);

}  // namespace qsel
