// The quality floor's other half (docs/quality.md): when the best answer that
// fits is in the broken range, say what would change it — the smallest
// --count at which a better candidate fits, and the longest shorter --context
// at which one does. Each hint names the candidate and its measured cost.
#include <fmt/format.h>

#include "qsel/rules/candidate_memory.h"
#include "qsel/rules/fit_price.h"
#include "qsel/rules/quality.h"
#include "qsel/rules/rule_support.h"
#include "qsel/rules/rules.h"

namespace qsel {
namespace {


std::string who(const Candidate& c) {
  return fmt::format("{} on {} ({})", c.format->id, c.engine ? c.engine->id : "-", c.quality.short_text);
}


// The longest context, halving from the query's down to 2k, at which `c` fits.
long context_that_fits(const Deliberation& d, const Candidate& c) {
  Query q = d.query;
  Deliberation at{d.graph, q, {}, {}, {}, {}, {}, {}};
  for (long t = d.query.context / 2; t >= 2048; t /= 2) {
    q.context = t;
    if (candidate_memory(at, c, c.memory->kv_dtype).fits) return t;
  }
  return 0;
}

}  // namespace

void floor_hints(Deliberation& d) {
  if (d.candidates.empty() || !d.candidates[0].memory || !d.candidates[0].memory->fits || !rule_util::broken(d.candidates[0])) return;
  auto better_unfit = [](const Candidate& c) { return !rule_util::broken(c) && c.memory && c.memory->bpw > 0 && !c.memory->fits; };
  MoreParts more = fewest_more_parts(d, better_unfit);
  const Candidate* by_context = nullptr;
  long context = 0;
  for (const auto& c : d.candidates) {
    if (!better_unfit(c)) continue;
    if (long t = context_that_fits(d, c); t > context) {
      by_context = &c;
      context = t;
    }
  }
  if (more.candidate) d.changes.push_back(fmt::format("with --count {}: {} fits", more.count, who(*more.candidate)));
  if (by_context) d.changes.push_back(fmt::format("at --context {}: {} fits", rule_util::context_tokens(context), who(*by_context)));
  d.notes.push_back(fmt::format("quality floor — #1 {} is in the broken range (cost >= {:g}, docs/quality.md) because nothing "
                                "better fits; {}",
                                d.candidates[0].format->id, broken_threshold(),
                                d.changes.empty() ? "no more GPUs (up to 8) or shorter context (down to 2k) makes room for one"
                                                  : "what would change it is listed"));
}

namespace {

std::string summary(const Candidate& c) {
  const Memory& m = *c.memory;
  std::string where = m.placement ? fmt::format("{:.1f} GB VRAM + {:.1f} GB RAM (`{}`)", m.placement->vram_gb, m.placement->ram_gb,
                                                m.placement->command)
                                  : fmt::format("{:.1f} GB, all on the GPU", m.total_gb);
  return fmt::format("{} on {}: {}, ~{:.0f} tok/s{}, {}", c.format->id, c.engine ? c.engine->id : "-", c.quality.short_text,
                     decode_speed(m), m.forecast_tok_s > 0 ? "" : " (ceiling)", where);
}

}  // namespace

void tradeoff_notes(Deliberation& d) {
  const Candidate* gpu = nullptr;
  const Candidate* ram = nullptr;
  for (const auto& c : d.candidates) {
    if (!c.memory || !c.memory->fits) continue;
    if (c.memory->placement && !ram) ram = &c;
    if (!c.memory->placement && !gpu) gpu = &c;
  }
  if (!gpu || !ram) return;
  const Candidate& first = d.candidates.front();
  d.tradeoffs.push_back("all on the GPU — " + summary(*gpu));
  d.tradeoffs.push_back("part in system RAM — " + summary(*ram));
  bool offload_first = &first == ram;
  std::string why;
  if (offload_first && d.query.objective == "speed" && rule_util::format_bits(*gpu) > 0 && rule_util::format_bits(*ram) >= 4 &&
      rule_util::format_bits(*gpu) < 4)
    // Speed ranks 4-bit formats first (docs/ranking.md): all on the GPU here takes fewer bits than that.
    why = fmt::format("it keeps 4 bits per weight or more, and all on the GPU takes {} ({:.1f} bits per weight, {})", gpu->format->id,
                      gpu->memory->bpw > 0 ? gpu->memory->bpw : rule_util::format_bits(*gpu), gpu->quality.band);
  else if (offload_first)
    why = fmt::format("{} against {}", ram->quality.band, gpu->quality.band);
  else if (d.query.objective != "quality")
    why = "faster";
  else if (quality_band_rank(gpu->quality.band) < quality_band_rank(ram->quality.band))
    why = fmt::format("{} is better ({} against {}) and faster", gpu->format->id, gpu->quality.band, ram->quality.band);
  else if (quality_band_rank(gpu->quality.band) == quality_band_rank(ram->quality.band))
    why = fmt::format("the same band ({}), and ~{:.0f} against ~{:.0f} tok/s", gpu->quality.band, decode_speed(*gpu->memory), decode_speed(*ram->memory));
  else  // a better band partly in RAM loses to speed: the offload costs bands (docs/placement.md, Ranking)
    why = fmt::format("{} at ~{:.0f} tok/s against {} at ~{:.0f} tok/s: a plan partly in system RAM counts bands worse "
                      "(docs/placement.md)", gpu->quality.band, decode_speed(*gpu->memory), ram->quality.band, decode_speed(*ram->memory));
  d.tradeoffs.push_back(fmt::format("objective {} picks {}: {}", d.query.objective, offload_first ? "system RAM" : "the GPU alone", why));
}

}  // namespace qsel
