#include "qsel/lint/check.h"

#include <stdexcept>

#include "qsel/core/parallel.h"
#include "qsel/lint/registry.h"

namespace qsel {

const Graph& CheckContext::graph() const {
  if (!graph_) throw std::logic_error(std::string(rule_.code) + ": a record part asked for the graph");
  return *graph_;
}

Finding& CheckContext::report(const Record& record, const std::string& pointer, std::string message) {
  Finding f;
  f.code = std::string(rule_.code);
  f.name = std::string(rule_.name);
  f.severity = rule_.severity;
  f.file = record.file;
  f.mark = record.mark_of(pointer);
  f.record = record.id;
  f.message = std::move(message);
  out_.push_back(std::move(f));
  return out_.back();
}

Findings check_record(const Record& record, const CheckOptions& options) {
  Findings out;
  for (const Check& c : checks()) {
    if (!c.each) continue;
    CheckContext ctx(*c.info, out, options);
    c.each(ctx, record);
  }
  return out;
}

namespace {

// Checks only read the graph, so on a large corpus they run side by side, each
// into its own list; the lists are joined in registry order, so the result is
// the one a single thread gives.
Findings run_parts(const Graph& graph, unsigned threads, bool record_parts) {
  const std::vector<Check>& all = checks();
  std::vector<Findings> found(all.size());
  if (threads == 0) threads = threads_for(graph.records().size(), 4096, 8);
  parallel_for(all.size(), threads, [&](std::size_t i) {
    if (record_parts && all[i].each) {
      CheckContext ctx(*all[i].info, found[i]);
      for (const Record& r : graph.records()) all[i].each(ctx, r);
    }
    if (all[i].run) {
      CheckContext ctx(graph, *all[i].info, found[i]);
      all[i].run(ctx);
    }
  });
  Findings out;
  for (Findings& f : found) out.insert(out.end(), std::make_move_iterator(f.begin()), std::make_move_iterator(f.end()));
  return out;
}

}  // namespace

Findings run_checks(const Graph& graph, unsigned threads) { return run_parts(graph, threads, true); }

Findings run_corpus_checks(const Graph& graph, unsigned threads) { return run_parts(graph, threads, false); }

const std::vector<KeptField>& corpus_reads() {
  static const std::vector<KeptField> all = [] {
    std::vector<KeptField> out = graph_reads();
    for (const Check& c : checks()) out.insert(out.end(), c.reads.begin(), c.reads.end());
    return out;
  }();
  return all;
}

Findings loader_findings(const Problems& problems) {
  Findings out;
  for (const Problem& p : problems) {
    const RuleInfo* rule = find_rule(p.code);
    out.push_back({p.code, rule ? std::string(rule->name) : "", p.severity, p.file, p.mark, p.record, p.message, {}});
  }
  return out;
}

}  // namespace qsel
