// The quality floor's other half (docs/quality.md): when the best answer that
// fits is in the broken range, say what would change it — the smallest
// --count at which a better candidate fits, and the longest shorter --context
// at which one does. Each hint names the candidate and its measured cost.
#include <fmt/format.h>

#include "qsel/rules/memory.h"
#include "qsel/rules/rules.h"

namespace qsel {
namespace {

bool is_broken(const Candidate& c) { return !c.quality.reference && c.quality.cost >= broken_threshold(); }

std::string who(const Candidate& c) {
  return fmt::format("{} on {} ({})", c.format->id, c.engine ? c.engine->id : "-", c.quality.short_text);
}

std::string tokens(long t) { return t % 1024 == 0 ? fmt::format("{}k", t / 1024) : fmt::format("{}", t); }

// The longest context, halving from the query's down to 2k, at which `c` fits.
long context_that_fits(const Deliberation& d, const Candidate& c) {
  Query q = d.query;
  Deliberation at{d.graph, q, {}, {}, {}, {}, {}};
  for (long t = d.query.context / 2; t >= 2048; t /= 2) {
    q.context = t;
    if (candidate_memory(at, c, c.memory->kv_dtype).fits) return t;
  }
  return 0;
}

}  // namespace

void floor_hints(Deliberation& d) {
  if (d.candidates.empty() || !d.candidates[0].memory || !d.candidates[0].memory->fits || !is_broken(d.candidates[0])) return;
  const Candidate* by_count = nullptr;
  int count = 0;
  const Candidate* by_context = nullptr;
  long context = 0;
  for (const auto& c : d.candidates) {
    if (is_broken(c) || !c.memory || c.memory->bpw <= 0 || c.memory->fits) continue;
    if (int n = smallest_count(d, c); n > 0 && n <= 8 && (!by_count || n < count)) {  // the fewest GPUs, best first
      by_count = &c;
      count = n;
    }
    if (long t = context_that_fits(d, c); t > context) {
      by_context = &c;
      context = t;
    }
  }
  if (by_count) d.changes.push_back(fmt::format("with --count {}: {} fits", count, who(*by_count)));
  if (by_context) d.changes.push_back(fmt::format("at --context {}: {} fits", tokens(context), who(*by_context)));
  d.notes.push_back(fmt::format("quality floor — #1 {} is in the broken range (cost >= {:g}, docs/quality.md) because nothing "
                                "better fits; {}",
                                d.candidates[0].format->id, broken_threshold(),
                                d.changes.empty() ? "no more GPUs (up to 8) or shorter context (down to 2k) makes room for one"
                                                  : "what would change it is listed"));
}

}  // namespace qsel
