// How a check sees the corpus and reports: one CheckContext per rule run.
#pragma once
#include <span>
#include <string>

#include "qsel/graph/graph.h"
#include "qsel/lint/check_options.h"
#include "qsel/lint/finding.h"
#include "qsel/lint/rule.h"
#include "qsel/loader/prune.h"

namespace qsel {

class CheckContext {
 public:
  CheckContext(const Graph& graph, const RuleInfo& rule, Findings& out) : graph_(&graph), rule_(rule), out_(out) {}
  // For a record part, which sees one record and no graph.
  CheckContext(const RuleInfo& rule, Findings& out, const CheckOptions& options = {})
      : rule_(rule), out_(out), options_(options) {}

  // The corpus; a record part that asks for it is a bug (std::logic_error).
  const Graph& graph() const;

  // Reports `message` at the value `pointer` of `record`, with the rule's default severity.
  Finding& report(const Record& record, const std::string& pointer, std::string message);

  const CheckOptions& options() const { return options_; }

 private:
  const Graph* graph_ = nullptr;
  const RuleInfo& rule_;
  Findings& out_;
  CheckOptions options_;
};

// A check: its rule and one or both of its parts.
//  - `each`, the record part, sees one record whole and nothing else. Lint runs
//    it while the record is loaded, on the loading thread.
//  - `run`, the corpus part, sees the graph. By then lint has pruned each
//    record (loader/prune.h) to its id, name, aliases, file, references and the
//    fields some corpus part declares in `reads`. A corpus part that reads a
//    field it does not declare sees it missing. Every lint test lints its
//    corpus both ways, pruned and whole, and fails on a difference
//    (tests/lint/lint_support.h), so each rule's own tests catch it.
struct Check {
  const RuleInfo* info;
  void (*run)(CheckContext&) = nullptr;
  void (*each)(CheckContext&, const Record&) = nullptr;
  std::span<const KeptField> reads = {};
};

// Every finding of every check (both parts) over a graph of whole records,
// unfiltered, in registry order. Checks run on `threads` threads (0: one per
// core for a corpus of 4,096 records or more, else one); the result is the same
// whatever the number.
Findings run_checks(const Graph& graph, unsigned threads = 0);

// The record parts of every check, on one record.
Findings check_record(const Record& record, const CheckOptions& options = {});

// The corpus parts of every check, as run_checks runs them.
Findings run_corpus_checks(const Graph& graph, unsigned threads = 0);

// What the corpus parts of all checks and the graph itself read of records.
const std::vector<KeptField>& corpus_reads();

// The loader's problems as findings (QS001, QS002, QS006-QS014).
Findings loader_findings(const Problems& problems);

}  // namespace qsel
