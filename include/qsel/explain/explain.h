// What `qsel explain` says about a topic, as JSON built from the records and the
// rule engine (renderers format it). Format x target answers reuse deliberate().
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "qsel/graph/graph.h"

namespace qsel {

// Everything every record kind says about one format on one target (or part):
// verdict, matrix cells, kernels per engine, kernel-record constraints,
// conflicts, benchmarks, gotchas, rules. `engines` restricts (empty: all).
nlohmann::ordered_json explain_format_on(const Graph& g, const Record& format, const Record& target,
                                         const Record* accelerator, const std::vector<std::string>& engines);

// A record with no --on: its own summary, per kind.
nlohmann::ordered_json explain_record(const Graph& g, const Record& r);

// A selection rule: its page, the records behind it.
nlohmann::ordered_json explain_rule(const Graph& g, const std::string& id);

struct HubSettings;

struct ExplainRequest {
  std::string topic;                 // a record id or alias, rule-1 … rule-7, or a checkpoint folder, file or Hub id
  std::string on;                    // a target, part, family or "auto" (formats only); empty: the record alone
  std::vector<std::string> engines;  // engine ids (resolved); empty: every engine
};

// `qsel explain`'s answer for every topic but a lint code (the CLI renders those from
// the registry): a rule, a checkpoint's format, a record alone, a format on a target,
// or a format on a family of targets (one answer per target, and whether they agree).
// An unknown topic is a UsageError with "did you mean".
nlohmann::ordered_json explain_topic(const Graph& g, const ExplainRequest& request, const HubSettings& hub);

}  // namespace qsel
