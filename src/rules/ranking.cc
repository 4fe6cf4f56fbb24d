// Ranking under a stated objective (docs/quality.md). Every objective starts
// with: fits, and no unconditional blocker; after sorting, the quality floor
// moves a broken #1 aside for the best candidate outside the broken range that
// fits. Then:
//   quality (default) — mainline serving paths before experimental ones; the
//     format the model ships in (the primary release or a repack of it, then a
//     QAT release); uncontested; serving engines first where the question is
//     serving (datacenter parts, several GPUs); --portable's format (Rule 3);
//     the quality band of the measured cost plus the price of how it fits (a
//     tight fit, part of the model in system RAM); the release before a second
//     quantization; measured before placed-by-bits; that cost inside the band
//     (within 1.2x is a tie); comfortable before tight, on the GPU before
//     offload, no KV quantization before an 8-bit cache; native before dequant
//     before emulated; Rule 3; a serving engine; the publisher's own checkpoint;
//     the decode ceiling.
//   speed — mainline; uncontested; serving engines first where the question is
//     serving; no re-quantized release; 4 bits or more; the forecast (or the
//     ceiling) of the regime the batch puts it in, in 5% steps below the
//     fastest of its group (the native path only breaks ties inside one); then
//     the quality order.
//   memory — mainline; uncontested; the smallest total memory; then quality.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include <fmt/format.h>

#include "qsel/rules/fit_price.h"
#include "qsel/rules/rules.h"
#include "qsel/rules/rule_support.h"
#include "qsel/core/json_number.h"

namespace qsel {
namespace {

// The best grade among the format's quality evidence: its quality_delta records and its measured rows.
std::string evidence_grade(const Graph& g, const Record& f) {
  std::map<int, int> counts;
  for (const auto& id : f.strings("/quality_delta"))
    if (const Record* b = g.find(id)) counts[rule_util::grade_rank(b->str("grade"))]++;
  for (const Record* b : quality_rows(g, f.id))
    if (!rule_util::contains(f.strings("/quality_delta"), b->id)) counts[rule_util::grade_rank(b->str("grade"))]++;
  if (counts.empty()) return "none recorded";
  static const char* names[] = {"controlled", "paper", "vendor-claim", "derived", "anecdotal", "ungraded"};
  return fmt::format("{} ({})", names[counts.begin()->first], counts.begin()->second);
}

bool has_blocker(const Candidate& c) {
  return std::any_of(c.warnings.begin(), c.warnings.end(),
                     [](const Warning& w) { return w.severity == "blocker" && w.condition.empty(); });
}

// What the speed objective ranks by: the calibrated forecast where there is one, else the ceiling.
double speed(const Candidate& c) { return c.memory ? decode_speed(*c.memory) : 0; }

double ceiling(const Candidate& c) {
  if (!c.memory) return 0;
  double m = c.memory->decode_tok_s, k = c.memory->compute_tok_s;
  return k > 0 && m > 0 ? std::min(m, k) : m;
}

// Bits of a format: its weight bits, or its sized bpw when it has none (mixtures, EXL2).
double format_bits(const Record& f, double sized_bpw) {
  return number_or(f.data, "weight_bits", sized_bpw);
}

// Below 4 bits the recorded accuracy cost jumps (3-bit 0.5-1.0 ppl, 2-bit 2.0+).
bool below_four_bits(const Candidate& c) {
  double b = format_bits(*c.format, c.memory ? c.memory->bpw : 0);
  return b > 0 && b < 4;
}

bool broken(const Candidate& c) { return !c.quality.reference && c.quality.cost >= broken_threshold(); }

int path_rank(const std::string& p) { return p == "native" ? 0 : p == "dequant" ? 1 : 2; }

// Serving engines (continuous batching, paged KV) before local runners before libraries.
int role_rank(const Candidate& c) {
  static const std::vector<std::string> order = {"serving", "local", "library", "research"};
  std::string role = c.engine ? c.engine->str("role") : "";
  auto it = std::find(order.begin(), order.end(), role);
  return static_cast<int>(it - order.begin());
}

// On a datacenter or cloud part, or across several GPUs, the question is serving:
// a local runner or a library answers it only when no serving engine does.
bool serving_question(const Query& q) {
  std::string market = q.accelerator ? q.accelerator->str("market") : "";
  return q.count > 1 || market == "datacenter" || market == "cloud";
}

// Values within 5% of each other are a tie: the model is not that precise.
int bucket(double v, bool descending) {
  if (v <= 0) return descending ? 0 : std::numeric_limits<int>::max();
  int b = static_cast<int>(std::floor(std::log(v) / std::log(1.05)));
  return descending ? -b : b;
}

using Key = std::vector<long>;

// An offload plan forecast under --min-tok-s (`slow`) counts four bands more.
constexpr long kSlowBands = 4;

// The KV-cache format record the candidate's cache is quantized to, or null for a 16-bit cache.
const Record* kv_cache_format(const Graph& g, const Candidate& c) {
  if (!c.memory || c.memory->kv_dtype.empty()) return nullptr;
  const Record* kv = g.find(c.memory->kv_dtype);
  return kv && kv->str("regime") == "kv-cache" ? kv : nullptr;
}

// An 8-bit KV cache Rule 6 chose is a capacity measure: inside a band, an answer that
// does not need it ranks first (Q8_0 weights before 16-bit weights with a Q8_0 cache).
bool kv_quantized(const Deliberation& d, const Candidate& c) {
  return d.query.kv_cache == "auto" && kv_cache_format(d.graph, c) != nullptr;
}

// 0: the publisher's own checkpoint; 1: a recorded third-party checkpoint; 2: none.
int release_rank(const Candidate& c) { return c.release.empty() ? 2 : c.release_official ? 0 : 1; }

// A second quantization of a model that ships quantized.
bool requantizes(const Deliberation& d, const Candidate& c) {
  const Release* shipped = d.query.model ? d.query.model->shipped() : nullptr;
  const Record* sf = shipped ? d.graph.find(shipped->format) : nullptr;
  return sf && !is_baseline(*sf) && !c.shipped && !is_baseline(*c.format);
}

// 0: the primary release or a repack of it; 1: the publisher's QAT release; 2: anything
// else, and a release that fits only partly in system RAM (it competes on quality and speed).
int shipped_rank(const Deliberation& d, const Candidate& c) {
  if (!c.shipped || (c.memory && c.memory->placement)) return 2;
  const Release* primary = d.query.model ? d.query.model->shipped() : nullptr;
  if (primary && primary->format == c.format->id) return 0;
  // A repack holds the primary's own values in another container (gpt-oss's MXFP4 as GGUF): the same release.
  for (const Release& r : d.query.model->releases)
    if (r.format == c.format->id && r.repack) return 0;
  return 1;
}

Key quality_key(const Deliberation& d, const Candidate& c, double reference_tok_s) {
  bool lower_bound = c.memory && (c.memory->bpw <= 0 || c.memory->bpw_source.find("lower bound") != std::string::npos);
  bool tensor_cores = c.kernel && c.kernel->data.value("tensor_cores", false);
  bool unnamed = c.engine && !c.kernel && !is_baseline(*c.format);
  bool tight = c.memory && c.memory->fit == "tight";
  std::string fit = c.memory ? c.memory->fit : "yes";
  bool off_role = serving_question(d.query) && role_rank(c) > 0;
  long required = d.query.portable ? c.rank_tier : 0;  // --portable is a requirement (Rule 3), not a tie-break
  // A tight fit and a plan partly in system RAM add their price (fit_price.h) to
  // the measured cost before the band is read: a tight fit ranks below a comfortable fit of
  // equal or slightly lower quality and above one much worse. An offload plan under
  // --min-tok-s costs four bands more.
  bool offloaded = fit == "offload" || fit == "slow";
  QualityCost q = priced_quality(c, reference_tok_s);  // what ranks: the measured cost plus the price of the fit
  long band = quality_band_index(q) + (fit == "slow" ? kSlowBands : 0);
  // Inside a band, a second quantization of a model that ships quantized comes after the release.
  return {rule_util::maturity_rank(c.maturity), shipped_rank(d, c), c.contested(), off_role, required, band,
          requantizes(d, c), !c.quality.measured, quality_bucket(q), tight, offloaded, kv_quantized(d, c), path_rank(c.path), unnamed, c.rank_tier, role_rank(c), release_rank(c),
          lower_bound, bucket(ceiling(c), true), rule_util::grade_rank(c.evidence_grade.substr(0, c.evidence_grade.find(' '))), c.cells.empty(),
          !tensor_cores};
}

// What the speed objective compares before speed itself.
Key speed_prefix(const Deliberation& d, const Candidate& c) {
  bool fits = !c.memory || c.memory->fits;
  bool off_role = serving_question(d.query) && role_rank(c) > 0;
  return {!fits, has_blocker(c), rule_util::maturity_rank(c.maturity), c.contested(), off_role, requantizes(d, c), c.rank_tier,
          below_four_bits(c)};
}

// Speed as steps of 5% below the fastest candidate of its group (equal speed_prefix):
// everything within 5% of that one is a tie, which native before dequant then decides.
long speed_step(const Candidate& c, double fastest) {
  double v = speed(c);
  if (v <= 0 || fastest <= 0) return std::numeric_limits<int>::max();
  return static_cast<long>(std::floor(std::log(fastest / v) / std::log(1.05)));
}

std::map<Key, double> fastest_by_group(const Deliberation& d) {
  std::map<Key, double> out;
  for (const auto& c : d.candidates) {
    double& best = out[speed_prefix(d, c)];
    best = std::max(best, speed(c));
  }
  return out;
}

Key objective_key(const Deliberation& d, const Candidate& c, const std::string& objective, double reference_tok_s,
                  const std::map<Key, double>& fastest) {
  bool fits = !c.memory || c.memory->fits;
  Key k = {!fits, has_blocker(c)};
  if (objective == "speed") {
    k = speed_prefix(d, c);
    k.insert(k.end(), {speed_step(c, fastest.at(k)), path_rank(c.path)});
  } else if (objective == "memory") {
    k.insert(k.end(), {rule_util::maturity_rank(c.maturity), c.contested(), c.rank_tier, bucket(c.memory ? c.memory->total_gb : 0, false)});
  }
  Key q = quality_key(d, c, reference_tok_s);
  k.insert(k.end(), q.begin(), q.end());
  return k;
}

// Facts that record the accuracy cost of a regime (cited on sub-4-bit candidates).
std::vector<std::string> cost_facts(const Graph& g, const std::string& regime) {
  std::vector<std::string> out;
  for (const Record* f : g.of_kind(Kind::Fact))
    for (const auto& r : f->strings("/applies/regimes"))
      if (r == regime) out.push_back(f->id);
  return out;
}

std::string objective_statement(const Deliberation& d, const std::string& objective) {
  std::string quality = "mainline serving path, the format the model ships in, uncontested, "
                        "serving engines first on datacenter parts or several GPUs, --portable's format (Rule 3), quality band of the "
                        "measured cost plus the price of a tight fit or of part in system RAM (docs/quality.md; bits per weight "
                        "place what nothing measures), the release before a second quantization, measured before placed, the cost "
                        "inside the band (within 1.2x is a tie), comfortable before tight, on the GPU before offload, no KV "
                        "quantization before an 8-bit cache, native > dequant > emulated, Rule 3, serving engine, a published "
                        "checkpoint (the publisher's first), decode ceiling (5% buckets), evidence grade";
  std::string floor = fmt::format("fits, no unconditional blocker (and #1 never broken, cost >= {:g}, while something "
                                  "outside that range fits: docs/quality.md)", broken_threshold());
  if (objective == "speed")
    return fmt::format("objective speed: {}, mainline, uncontested, serving engines first on datacenter parts or several GPUs, "
                       "no second quantization of a quantized release, Rule 3, 4 bits or more, decode forecast at batch {} "
                       "(steps of 5% below the fastest of its group; native > dequant only inside one); ties by quality ({})", floor, d.query.batch, quality);
  if (objective == "memory")
    return "objective memory: " + floor + ", mainline serving path, uncontested, Rule 3, smallest total memory (5% buckets); "
           "ties by quality (" + quality + ")";
  return "objective quality: " + floor + ", " + quality;
}

// The quality floor: a broken #1 gives way to the best candidate outside the broken
// range that fits with no unconditional blocker; the rest of the order stands.
void apply_floor(Deliberation& d) {
  auto& cs = d.candidates;
  if (cs.empty() || !broken(cs[0]) || !cs[0].memory || !cs[0].memory->fits) return;
  auto better = std::find_if(cs.begin() + 1, cs.end(), [](const Candidate& c) {
    return !broken(c) && (!c.memory || c.memory->fits) && !has_blocker(c);
  });
  if (better == cs.end()) return;
  d.notes.push_back(fmt::format("quality floor — {} on {} ranked first by the order above but is in the broken range; {} on {} "
                                "fits outside it and leads instead", cs[0].format->id, cs[0].engine ? cs[0].engine->id : "-",
                                better->format->id, better->engine ? better->engine->id : "-"));
  std::rotate(cs.begin(), better, better + 1);
}

// Batch 1 decode reads every weight once per token: bandwidth decides. With a
// large enough batch the same bytes serve many tokens and compute decides.
void regime_note(Deliberation& d) {
  if (d.candidates.empty() || !d.candidates[0].memory) return;
  const Memory& m = *d.candidates[0].memory;
  if (m.decode_tok_s <= 0) return;
  bool compute = m.compute_tok_s > 0 && m.compute_tok_s < m.decode_tok_s;
  d.notes.push_back(compute ? fmt::format("regime — at batch {} decode is compute-bound on #1 (compute ceiling ~{:.0f} tok/s "
                                          "below the bandwidth ceiling ~{:.0f}): the native low-precision path is what speeds "
                                          "it up", d.query.batch, m.compute_tok_s, m.decode_tok_s)
                            : fmt::format("regime — at batch {} decode is bandwidth-bound on #1 (bandwidth ceiling ~{:.0f} "
                                          "tok/s{}): bytes read per token decide, not the tensor-core path",
                                          d.query.batch, m.decode_tok_s,
                                          m.compute_tok_s > 0 ? fmt::format(", compute ~{:.0f}", m.compute_tok_s) : ""));
}

}  // namespace

void rank_candidates(Deliberation& d) {
  const ModelSpec* model = d.query.model ? &*d.query.model : nullptr;
  for (auto& c : d.candidates) {
    c.evidence_grade = evidence_grade(d.graph, *c.format);
    c.quality = quality_cost(d.graph, *c.format, model, c.memory ? c.memory->bpw : 0);
    if (c.shipped && !c.quality.reference) {  // the model as released is the reference its users compare against
      c.quality.statement = fmt::format("the model as released; {} itself measures {}", c.format->id, c.quality.statement);
      c.quality.reference = true;
      c.quality.cost = 0;
      c.quality.band = "reference";
      c.quality.short_text = "as released";
    }
    if (const Record* kv = kv_cache_format(d.graph, c)) add_kv_cache_cost(d.graph, *kv, c.quality);
    if (c.quality.benchmark.size()) rule_util::add_unique(c.evidence, c.quality.benchmark);
    if (!below_four_bits(c)) continue;
    auto facts = cost_facts(d.graph, c.format->str("regime"));
    c.why.push_back(fmt::format("below 4 bits the recorded accuracy cost jumps{}",
                                facts.empty() ? "" : fmt::format(" [{}]", fmt::join(facts, ", "))));
    for (const auto& f : facts) rule_util::add_unique(c.evidence, f);
  }
  const std::string& objective = d.query.objective;
  d.notes.push_back("ranking — " + objective_statement(d, objective));
  double reference = gpu_reference_tok_s(d.candidates);
  auto fastest = fastest_by_group(d);
  std::vector<std::pair<Key, Candidate>> keyed;  // each key computed once
  keyed.reserve(d.candidates.size());
  for (auto& c : d.candidates) {
    Key k = objective_key(d, c, objective, reference, fastest);
    keyed.emplace_back(std::move(k), std::move(c));
  }
  std::stable_sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) {
    if (a.first != b.first) return a.first < b.first;
    return std::make_pair(a.second.format->id, a.second.engine ? a.second.engine->id : std::string()) <
           std::make_pair(b.second.format->id, b.second.engine ? b.second.engine->id : std::string());
  });
  d.candidates.clear();
  for (auto& kc : keyed) d.candidates.push_back(std::move(kc.second));
  apply_floor(d);
  regime_note(d);
}

}  // namespace qsel
