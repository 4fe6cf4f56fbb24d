#include "qsel/lint/check.h"

#include "qsel/lint/registry.h"

namespace qsel {

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

Findings run_checks(const Graph& graph) {
  Findings out;
  for (const Check& c : checks()) {
    CheckContext ctx(graph, *c.info, out);
    c.run(ctx);
  }
  return out;
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
