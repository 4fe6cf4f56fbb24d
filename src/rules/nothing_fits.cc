// After ranking: when no candidate fits, the answer opens with that, and with the
// smallest changes that make one fit — each asked again in full, so every line names
// that answer's #1 as recommend would rank it:
//   a shorter --context (halving, down to 2k);
//   system RAM for an engine that keeps part of a model there (--ram), on a discrete GPU;
//   more GPUs of this kind (--count, up to one node), only for parts a user adds more of;
//   a smaller model of the same family (--model);
//   any engine, any format, when the query restricted them.
// recommend then exits 1 (docs/commands/recommend.md, "Nothing fits").
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "qsel/core/units.h"
#include "qsel/rules/candidate_memory.h"
#include "qsel/sizing/memory.h"
#include "qsel/rules/rule_support.h"
#include "qsel/rules/rules.h"

namespace qsel {
namespace {

double nf_params_of(const Record& m) {
  auto it = m.data.find("params_b");
  return it != m.data.end() && it->is_number() ? it->get<double>() : 0;
}


// Whether some offerable candidate of `d` fits when sized under `q` (the same candidates, re-sized).
bool nf_some_fit(const Deliberation& d, const Query& q) {
  Deliberation at{d.graph, q, {}, {}, {}, {}, {}, {}};
  return std::any_of(d.candidates.begin(), d.candidates.end(),
                     [&](const Candidate& c) { return rule_util::offerable(c) && candidate_memory(at, c, c.memory->kv_dtype).fits; });
}

// The answer to `q` asked in full; its #1 when that fits and is a deployment, else "".
std::string nf_first_of(const Deliberation& d, Query q) {
  q.suggest = false;
  auto first = first_deployment(d, q);
  return first ? rule_util::describe_candidate(*first) : "";
}

// The smallest total any candidate asks for, and which.
const Candidate* nf_smallest(const Deliberation& d) {
  const Candidate* best = nullptr;
  for (const auto& c : d.candidates)
    if (c.memory && c.memory->bpw > 0 && c.memory->total_gb > 0 && (!best || c.memory->total_gb < best->memory->total_gb)) best = &c;
  return best;
}

}  // namespace

void nothing_fits_lead(Deliberation& d) {
  const Query& q = d.query;
  if (!q.suggest || !q.model || !q.accelerator || d.candidates.empty() || rule_util::fits(d.candidates.front())) return;
  d.deployable = false;
  d.lead_kind = "nothing-fits";
  const Candidate* least = nf_smallest(d);
  d.lead.push_back(least ? fmt::format("{} x {} ({:.1f} GB for the model) holds none of the {} plans: the smallest, {} on {}, needs {:.1f} GB",
                                       q.count, q.accelerator->id, least->memory->budget_gb, d.candidates.size(), least->format->id,
                                       least->engine ? least->engine->id : "-", least->memory->total_gb)
                         : fmt::format("{} x {} holds none of the {} plans", q.count, q.accelerator->id, d.candidates.size()));
  std::vector<std::string> tried;
  auto offer = [&](const std::string& change, const Query& changed) {
    std::string first = nf_first_of(d, changed);
    if (!first.empty()) d.lead.push_back(fmt::format("with {}: {}", change, first));
    return !first.empty();
  };
  // A shorter context: the longest halving that lets one fit.
  for (long t = q.context / 2; t >= 2048; t /= 2) {
    Query s = q;
    s.context = t;
    if (nf_some_fit(d, s) && offer(fmt::format("--context {}", rule_util::context_tokens(t)), s)) break;
  }
  tried.push_back("a shorter --context down to 2k");
  // System RAM, where an allowed engine keeps part of the model there.
  bool offloads = std::any_of(d.candidates.begin(), d.candidates.end(),
                              [&](const Candidate& c) { return c.engine && can_offload(c.engine, *q.accelerator); });
  if (offloads) {
    for (double gb : {64.0, 128.0, 192.0, 256.0, 384.0, 512.0, 768.0, 1024.0}) {
      if (gb <= q.host.ram_gb) continue;
      Query s = q;
      s.host.ram_gb = gb;
      s.host.source = fmt::format("--ram {:g}", gb);
      if (nf_some_fit(d, s) && offer(fmt::format("--ram {:g} (GB of system RAM)", gb), s)) break;
    }
    tried.push_back("system RAM up to 1 TB");
  }
  // A Metal working set is macOS's default, which one setting raises (iogpu.wired_limit_mb): planned at the machine's
  // memory less what macOS keeps, the larger of 8 GiB and a sixteenth (the MLX runner's "Large models": the limit should be
  // larger than the model and smaller than the machine's memory).
  if (q.target && q.target->data.contains("gpu_working_set") && q.accelerator->data.value("gpu_free_given", false) == false) {
    double cap = capacity_gb(*q.accelerator);
    double keep = std::max(8 * kGiBInGB, cap / 16);
    if (cap > keep) {
      double raised_gib = (cap - keep) / kGiBInGB, keep_gib = keep / kGiBInGB;
      Record raised = *q.accelerator;
      raised.data["gpu_free_gb"] = cap - keep;
      raised.data["gpu_free_given"] = true;
      raised.data["gpu_free_note"] = fmt::format("the Metal working set raised to {:.0f} GiB with iogpu.wired_limit_mb, {:.0f} GiB left to macOS",
                                                 raised_gib, keep_gib);
      Query s = q;
      s.accelerator = &raised;
      if (nf_some_fit(d, s))
        offer(fmt::format("`sudo sysctl iogpu.wired_limit_mb={}` (the GPU's limit raised to {:.0f} GiB, {:.0f} GiB left to macOS; "
                          "plan it with --vram-free {:.0f})", std::lround(raised_gib * 1024), raised_gib, keep_gib, raised_gib),
              s);
    }
    tried.push_back("the Metal working set raised");
  }
  // More GPUs of this kind, within one node.
  if (rule_util::takes_more_parts(q.accelerator)) {
    if (MoreParts more = fewest_more_parts(d, rule_util::offerable); more.count) {
      Query s = q;
      s.count = more.count;
      offer(fmt::format("--count {}", more.count), s);
    }
    tried.push_back("up to 8 GPUs");
  }
  // A smaller model of the family, the largest that fits first.
  if (!q.model->family.empty()) {
    std::vector<const Record*> smaller;
    for (const Record* m : d.graph.of_kind(Kind::Model)) {
      double p = nf_params_of(*m);
      if (m->str("family") == q.model->family && m->id != q.model->id && p > 0 && p < q.model->params_b) smaller.push_back(m);
    }
    std::sort(smaller.begin(), smaller.end(), [](const Record* a, const Record* b) { return nf_params_of(*a) > nf_params_of(*b); });
    for (std::size_t i = 0; i < smaller.size() && i < 6; ++i) {
      Query s = q;
      s.model = model_from_record(*smaller[i]);
      if (nf_some_fit(d, s) && offer(fmt::format("--model {}", smaller[i]->id), s)) break;  // sized first: asked in full only if it may fit
    }
    tried.push_back(fmt::format("smaller {} models", q.model->family));
  }
  // The query's own restrictions.
  if (!q.engines.empty() || !q.formats.empty() || !q.backends.empty()) {
    Query s = q;
    s.engines.clear();
    s.formats.clear();
    s.backends.clear();
    offer("every engine and format", s);
  }
  if (d.lead.size() == 1) d.lead.push_back(fmt::format("no change tried makes one fit ({})", fmt::join(tried, "; ")));
}

}  // namespace qsel
