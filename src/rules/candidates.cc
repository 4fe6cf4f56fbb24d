// The starting set: every (format, engine) pair where the engine runs on the
// target and serves the format, plus the unquantized baseline. A part that no
// format record lists at all keeps only the baseline (nothing invented).
#include <fmt/format.h>

#include "qsel/rules/rules.h"
#include "qsel/rules/verdict.h"
#include "rule_support.h"

namespace qsel {
namespace {

using rule_util::contains;

bool weight_format(const Record& f) {
  std::string regime = f.str("regime");
  return regime != "kv-cache" && f.str("scheme") != "category";
}

bool wanted(const std::vector<std::string>& filter, const std::string& id) { return filter.empty() || contains(filter, id); }

// True when some format record lists `accelerator` (native or emulated).
bool listed_anywhere(const Graph& g, const std::string& accelerator) {
  for (const Record* f : g.of_kind(Kind::Format))
    if (contains(f->strings("/native_support"), accelerator) || contains(f->strings("/emulated_support"), accelerator))
      return true;
  return false;
}

bool quantization_unrecorded(const Deliberation& d) {
  auto ps = parts_of(d);
  if (ps.empty()) return false;
  for (const Record* a : ps)
    if (listed_anywhere(d.graph, a->id)) return false;
  return true;
}

std::string part_names(const Deliberation& d) {
  std::vector<std::string> ids;
  for (const Record* a : parts_of(d)) ids.push_back(a->id);
  return fmt::format("{}", fmt::join(ids, ", "));
}

}  // namespace

void enumerate_candidates(Deliberation& d) {
  const Query& q = d.query;
  bool unrecorded = quantization_unrecorded(d);
  for (const Record* f : d.graph.of_kind(Kind::Format)) {
    if (!weight_format(*f) || !wanted(q.formats, f->id)) continue;
    if (f->data.value("moe", false) && q.model && !q.model->moe()) continue;  // MoE-only formats need experts
    if (rule_util::is_baseline(*f)) {
      Candidate c;
      c.format = f;
      c.path = "native";
      c.why.push_back("the unquantized reference every comparison is measured against");
      d.candidates.push_back(std::move(c));
      continue;
    }
    for (const Record* e : d.graph.of_kind(Kind::Engine)) {
      if (!wanted(q.engines, e->id) || !rule_util::engine_runs_on(*e, *q.target)) continue;
      if (!contains(served_formats(*e), f->id)) continue;
      if (unrecorded) continue;
      Candidate c;
      c.format = f;
      c.engine = e;
      d.candidates.push_back(std::move(c));
    }
  }
  if (unrecorded)
    d.unknowns.push_back(fmt::format("no format record lists {} in native_support or emulated_support: its quantization "
                                     "support is unrecorded, so only the unquantized baseline is offered", part_names(d)));
}

}  // namespace qsel
