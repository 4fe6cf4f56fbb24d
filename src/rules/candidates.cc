// The starting set: every (format, engine) pair where the engine runs on the
// target and serves the format, and every engine's unquantized baseline. What
// runs is decided later from kernels and target dtypes, never from a format
// record's support lists (Rule 1), so a part no list names still gets answers —
// and the answer says the lists are silent about it.
#include <fmt/format.h>

#include "qsel/rules/rules.h"
#include "qsel/core/json_number.h"
#include "qsel/rules/verdict.h"
#include "qsel/rules/rule_support.h"

namespace qsel {
namespace {

using rule_util::contains;

bool weight_format(const Record& f) {
  std::string regime = f.str("regime");
  return regime != "kv-cache" && f.str("scheme") != "category";
}

bool wanted(const std::vector<std::string>& filter, const std::string& id) { return filter.empty() || contains(filter, id); }

bool has_release(const ModelSpec& m, const std::string& format) {
  return std::any_of(m.releases.begin(), m.releases.end(), [&](const Release& r) { return r.format == format; });
}

// True when some format record lists `accelerator` (native or emulated).
bool listed_anywhere(const Graph& g, const std::string& accelerator) {
  for (const Record* f : g.of_kind(Kind::Format))
    if (contains(f->strings("/native_support"), accelerator) || contains(f->strings("/emulated_support"), accelerator))
      return true;
  return false;
}

std::string part_names(const Deliberation& d) {
  std::vector<std::string> ids;
  for (const Record* a : parts_of(d)) ids.push_back(a->id);
  return fmt::format("{}", fmt::join(ids, ", "));
}

// Models are served in bf16 where the target has it; fp16 is the same row again
// there, so it is offered only where bf16 is missing (or when asked for by name).
// A bf16 row on a target without bf16 is kept so Rule 2 can say why it does not run.
bool offer_baseline(const Deliberation& d, const Record& f) {
  if (!d.query.formats.empty() || f.str("compute_dtype") == "bf16") return true;
  return !rule_util::target_has_dtype(*d.query.target, "bf16");
}

// An engine whose own platform list leaves this part out serves it only where a
// maturity entry names it (a community or source build, with its source): else it is
// excluded, and the exclusion cites the list.
bool platform_listed(Deliberation& d, const Record& e) {
  const Query& q = d.query;
  auto listing = rule_util::platform_listing(e, *q.target, q.accelerator);
  if (listing.listed) return true;
  for (const auto& m : array_field(e.data, "maturity"))
    if (!m.contains("formats") && rule_util::maturity_rank(m.value("level", std::string("mainline"))) > 0 &&
        rule_util::maturity_entry_holds(m, *q.target, q.accelerator))
      return true;
  d.excluded.push_back({"", e.id, "platform",
                        fmt::format("{}'s supported platforms leave out {}, and no community build is recorded for it [{}]", e.id,
                                    listing.detail, listing.source),
                        {e.id}});
  return false;
}

}  // namespace

void enumerate_candidates(Deliberation& d) {
  const Query& q = d.query;
  std::vector<const Record*> engines;
  for (const Record* e : d.graph.of_kind(Kind::Engine))
    if (rule_util::engine_asked(q, *e) && rule_util::engine_runs_on(*e, *q.target) && platform_listed(d, *e)) engines.push_back(e);
  if (engines.empty()) {
    // Where the engines asked for do not run here, name the ones that do, so the answer says where to go.
    std::vector<std::string> elsewhere;
    if (!q.engines.empty())
      for (const Record* e : d.graph.of_kind(Kind::Engine))
        if (!rule_util::engine_asked(q, *e) && rule_util::engine_runs_on(*e, *q.target)) elsewhere.push_back(e->id);
    d.unknowns.push_back(fmt::format("no engine record runs on {} ({}{}): the records cannot say how to serve a model there{}",
                                     q.target->id, q.target->str("platform"), q.engines.empty() ? "" : ", among the engines asked for",
                                     elsewhere.empty() ? std::string() : fmt::format("; engines recorded for {}: {} (--engine)", q.target->id,
                                                                                      fmt::join(elsewhere, ", "))));
    return;
  }
  for (const Record* f : d.graph.of_kind(Kind::Format)) {
    if (!weight_format(*f) || !wanted(q.formats, f->id)) continue;
    if (f->data.value("moe", false) && q.model && !q.model->moe()) continue;  // MoE-only formats need experts
    // A format no released tool makes from the 16-bit weights (a GGUF NVFP4 is converted from an NVFP4 checkpoint; llama-quantize
    // has no NVFP4 target) exists for a model only as a published file: without one there is nothing to run.
    if (f->data.value("published_only", false) && q.model && !has_release(*q.model, f->id)) {
      if (!q.formats.empty())
        d.excluded.push_back({f->id, "", "published-only",
                              fmt::format("no released tool makes {} from the 16-bit weights and {} lists no release in it", f->id,
                                          q.model->id.empty() ? "the model" : q.model->id),
                              {f->id}});
      continue;
    }
    bool baseline = is_baseline(*f);
    if (baseline && !offer_baseline(d, *f)) continue;
    for (const Record* e : engines) {
      bool serves = baseline ? e->data.value("unquantized", true) : contains(served_formats(*e), f->id);
      if (!serves) continue;
      Candidate c;
      c.format = f;
      c.engine = e;
      if (baseline) c.why.push_back("the unquantized reference every comparison is measured against");
      d.candidates.push_back(std::move(c));
    }
  }
  auto parts = parts_of(d);
  bool listed = false;
  for (const Record* a : parts) listed = listed || listed_anywhere(d.graph, a->id);
  if (q.accelerator && q.accelerator->data.value("user_described", false))
    d.unknowns.push_back(fmt::format("a described part is on no format record's list: what runs there comes from engine kernel "
                                     "selection on {} only", q.target->id));
  else if (!parts.empty() && !listed)
    d.unknowns.push_back(fmt::format("no format record lists {} in native_support or emulated_support (a gap in the "
                                     "census, not a finding): what runs there comes from engine kernel selection only",
                                     part_names(d)));
}

}  // namespace qsel
