// How a check sees the corpus and reports: one CheckContext per rule run.
#pragma once
#include <string>

#include "qsel/graph/graph.h"
#include "qsel/lint/finding.h"
#include "qsel/lint/rule.h"

namespace qsel {

class CheckContext {
 public:
  CheckContext(const Graph& graph, const RuleInfo& rule, Findings& out) : graph_(graph), rule_(rule), out_(out) {}

  const Graph& graph() const { return graph_; }

  // Reports `message` at the value `pointer` of `record`, with the rule's default severity.
  Finding& report(const Record& record, const std::string& pointer, std::string message);

 private:
  const Graph& graph_;
  const RuleInfo& rule_;
  Findings& out_;
};

// A check: its rule, and the function that runs it (null for the loader's rules,
// whose findings come from the loader's problems).
struct Check {
  const RuleInfo* info;
  void (*run)(CheckContext&);
};

// Every finding of every graph check, unfiltered, in registry order. Checks run
// on `threads` threads (0: one per core for a corpus of 4,096 records or more,
// else one); the result is the same whatever the number.
Findings run_checks(const Graph& graph, unsigned threads = 0);

// The loader's problems as findings (QS001, QS002, QS006-QS014).
Findings loader_findings(const Problems& problems);

}  // namespace qsel
