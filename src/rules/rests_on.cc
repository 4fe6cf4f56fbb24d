#include "qsel/rules/rests_on.h"

#include <fmt/format.h>

#include "qsel/rules/rule_support.h"

namespace qsel {
namespace {

// "a, b, c" or "a, b, c, … (7 in all)" past `most`.
std::string some(const std::vector<std::string>& ids, std::size_t most = 5) {
  if (ids.size() <= most) return fmt::format("{}", fmt::join(ids, ", "));
  std::vector<std::string> head(ids.begin(), ids.begin() + static_cast<long>(most));
  return fmt::format("{}, … ({} in all)", fmt::join(head, ", "), ids.size());
}

}  // namespace

RestsOn rests_on_records(const Graph& g, const std::vector<std::string>& ids) {
  RestsOn r;
  for (const auto& id : ids) {
    const Record* rec = g.find(id);
    if (!rec || rule_util::contains(r.records, rec->id)) continue;
    r.records.push_back(rec->id);
    if (rec->str("status") != "reviewed") r.draft.push_back(rec->id);
    if (rec->kind == Kind::Benchmark && rec->str("grade") == "unverified") r.unverified.push_back(rec->id);
  }
  std::size_t n = r.records.size();
  std::string drafts = r.draft.empty() ? "none of them drafts"
                       : r.draft.size() == n ? fmt::format("all of them drafts ({})", some(r.draft))
                                              : fmt::format("{} of them draft{} ({})", r.draft.size(), r.draft.size() == 1 ? "" : "s",
                                                            some(r.draft));
  std::string unverified = r.unverified.empty()
                               ? ""
                               : fmt::format("; {} unverified measurement{} ({}): no source a reader can open holds the figure",
                                             r.unverified.size(), r.unverified.size() == 1 ? "" : "s", some(r.unverified));
  r.statement = fmt::format("rests on {} record{}, {}{}", n, n == 1 ? "" : "s", drafts, unverified);
  return r;
}

RestsOn rests_on(const Deliberation& d, const Candidate& c) {
  std::vector<std::string> ids;
  auto add = [&](const Record* r) {
    if (r) ids.push_back(r->id);
  };
  add(c.format);
  add(c.engine);
  add(c.kernel);
  add(d.query.accelerator);
  add(d.query.target);
  if (d.query.model && !d.query.model->id.empty()) ids.push_back(d.query.model->id);
  for (const auto& m : c.cells) ids.push_back(m.matrix);
  for (const auto& e : c.evidence) ids.push_back(e);
  for (const auto& b : c.quality.here) ids.push_back(b);
  return rests_on_records(d.graph, ids);
}

}  // namespace qsel
