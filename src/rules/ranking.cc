// Ranking under a stated objective. Every objective starts with: fits, and no
// unconditional blocker. Then:
//   quality (default) — the format the model ships in; the highest precision
//     tier (16 > 8 > 6 > 5 > 4 > 3 > 2 > 1 bits); uncontested; native before
//     dequant before emulated; mainline serving paths; Rule 3; serving engines;
//     the publisher's own checkpoint; the decode ceiling.
//   speed — uncontested; native before dequant before emulated; mainline; 4 bits
//     or more; the decode ceiling; then the quality order.
//   memory — uncontested; mainline; the smallest total memory; then quality.
// Doc 23 §9.1: there is no cost-per-quality ranking between formats, so none is
// invented inside a tier; ties fall to measured facts (bytes, evidence grade).
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include <fmt/format.h>

#include "qsel/rules/rules.h"
#include "rule_support.h"

namespace qsel {
namespace {

int grade_rank(const std::string& g) {
  static const std::vector<std::string> order = {"controlled", "paper", "vendor-claim", "derived", "anecdotal"};
  auto it = std::find(order.begin(), order.end(), g);
  return it == order.end() ? static_cast<int>(order.size()) : static_cast<int>(it - order.begin());
}

std::string evidence_grade(const Graph& g, const Record& f) {
  std::map<int, int> counts;
  for (const auto& id : f.strings("/quality_delta"))
    if (const Record* b = g.find(id)) counts[grade_rank(b->str("grade"))]++;
  if (counts.empty()) return "none recorded";
  static const char* names[] = {"controlled", "paper", "vendor-claim", "derived", "anecdotal", "ungraded"};
  return fmt::format("{} ({})", names[counts.begin()->first], counts.begin()->second);
}

bool has_blocker(const Candidate& c) {
  return std::any_of(c.warnings.begin(), c.warnings.end(),
                     [](const Warning& w) { return w.severity == "blocker" && w.condition.empty(); });
}

double ceiling(const Candidate& c) {
  if (!c.memory) return 0;
  double m = c.memory->decode_tok_s, k = c.memory->compute_tok_s;
  return k > 0 && m > 0 ? std::min(m, k) : m;
}

// The precision tier of a format: 16, 8, 4 (4 up to 8 bits: 5- and 6-bit GGUF
// types are 4-bit-class mixtures), then 3, 2, 1 (below 4 bits the recorded cost
// grows with every bit lost). From the format's weight bits, or its sized bpw when
// it has none (mixtures, EXL2). 0 when nothing says.
int format_tier(const Record& f, double sized_bpw) {
  double bits = f.data.value("weight_bits", nlohmann::json()).is_number() ? f.data["weight_bits"].get<double>() : sized_bpw;
  if (bits >= 16) return 16;
  if (bits >= 8) return 8;
  if (bits >= 4) return 4;
  return bits > 0 ? static_cast<int>(std::floor(bits)) : 0;
}

// A model released quantized gains nothing from a wider format: its tier is capped
// at the shipped one's, so re-quantizing up never outranks serving as released.
int tier(const Deliberation& d, const Candidate& c) {
  int t = format_tier(*c.format, c.memory ? c.memory->bpw : 0);
  const Release* shipped = d.query.model ? d.query.model->shipped() : nullptr;
  const Record* sf = shipped ? d.graph.find(shipped->format) : nullptr;
  if (sf) t = std::min(t, format_tier(*sf, 0) > 0 ? format_tier(*sf, 0) : t);
  return t;
}

// Below 4 bits the recorded accuracy cost jumps (3-bit 0.5-1.0 ppl, 2-bit 2.0+).
bool below_quality_floor(const Candidate& c) {
  int t = format_tier(*c.format, c.memory ? c.memory->bpw : 0);
  return t > 0 && t < 4;
}

int path_rank(const std::string& p) { return p == "native" ? 0 : p == "dequant" ? 1 : 2; }

int maturity_rank(const std::string& m) {
  static const std::vector<std::string> order = {"mainline", "plugin", "experimental", "deprecated"};
  auto it = std::find(order.begin(), order.end(), m);
  return static_cast<int>(it - order.begin());
}

// Serving engines (continuous batching, paged KV) before local runners before libraries.
int role_rank(const Candidate& c) {
  static const std::vector<std::string> order = {"serving", "local", "library", "research"};
  std::string role = c.engine ? c.engine->str("role") : "";
  auto it = std::find(order.begin(), order.end(), role);
  return static_cast<int>(it - order.begin());
}

// Values within 5% of each other are a tie: the model is not that precise.
int bucket(double v, bool descending) {
  if (v <= 0) return descending ? 0 : std::numeric_limits<int>::max();
  int b = static_cast<int>(std::floor(std::log(v) / std::log(1.05)));
  return descending ? -b : b;
}

using Key = std::vector<long>;

// 0: the publisher's own checkpoint; 1: a recorded third-party checkpoint; 2: none.
int release_rank(const Candidate& c) { return c.release.empty() ? 2 : c.release_official ? 0 : 1; }

Key quality_key(const Deliberation& d, const Candidate& c) {
  bool lower_bound = c.memory && (c.memory->bpw <= 0 || c.memory->bpw_source.find("lower bound") != std::string::npos);
  bool tensor_cores = c.kernel && c.kernel->data.value("tensor_cores", false);
  bool unnamed = c.engine && !c.kernel && !rule_util::is_baseline(*c.format);
  return {!c.shipped, -tier(d, c), c.contested(), path_rank(c.path), maturity_rank(c.maturity), unnamed, c.rank_tier, role_rank(c),
          release_rank(c), lower_bound, bucket(ceiling(c), true),
          grade_rank(c.evidence_grade.substr(0, c.evidence_grade.find(' '))), c.cells.empty(), !tensor_cores};
}

Key objective_key(const Deliberation& d, const Candidate& c, const std::string& objective) {
  bool fits = !c.memory || c.memory->fits;
  Key k = {!fits, has_blocker(c)};
  Key q = quality_key(d, c);
  if (objective == "speed")
    k.insert(k.end(), {c.contested(), path_rank(c.path), maturity_rank(c.maturity), c.rank_tier, below_quality_floor(c),
                       bucket(ceiling(c), true)});
  else if (objective == "memory")
    k.insert(k.end(), {c.contested(), maturity_rank(c.maturity), c.rank_tier, bucket(c.memory ? c.memory->total_gb : 0, false)});
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

std::string objective_statement(const std::string& objective) {
  std::string quality = "the format the model ships in, precision tier (16 > 8 > 4 > 3 > 2 > 1 bits; 4 covers 4 to 8 bits; "
                        "never above a quantized release's own), uncontested, native > dequant > emulated, mainline serving "
                        "path, a recorded kernel, Rule 3, serving engine, a published checkpoint (the publisher's first), "
                        "decode ceiling (5% buckets), evidence grade";
  if (objective == "speed")
    return "objective speed: fits, no unconditional blocker, uncontested, native > dequant > emulated, mainline serving "
           "path, Rule 3, 4 bits or more, decode ceiling (5% buckets); ties by quality (" + quality + ")";
  if (objective == "memory")
    return "objective memory: fits, no unconditional blocker, uncontested, mainline serving path, Rule 3, smallest total "
           "memory (5% buckets); ties by quality (" + quality + ")";
  return "objective quality: fits, no unconditional blocker, " + quality +
         "; no cost-per-quality ranking exists between formats (doc 23 §9.1), so none is invented inside a tier";
}

}  // namespace

void rank_candidates(Deliberation& d) {
  for (auto& c : d.candidates) {
    c.evidence_grade = evidence_grade(d.graph, *c.format);
    if (!below_quality_floor(c)) continue;
    auto facts = cost_facts(d.graph, c.format->str("regime"));
    c.why.push_back(fmt::format("below 4 bits the recorded accuracy cost jumps{}",
                                facts.empty() ? "" : fmt::format(" [{}]", fmt::join(facts, ", "))));
    for (const auto& f : facts) rule_util::add_unique(c.evidence, f);
  }
  const std::string& objective = d.query.objective;
  d.notes.push_back("ranking — " + objective_statement(objective));
  std::stable_sort(d.candidates.begin(), d.candidates.end(), [&](const Candidate& a, const Candidate& b) {
    auto ka = objective_key(d, a, objective), kb = objective_key(d, b, objective);
    if (ka != kb) return ka < kb;
    return std::make_pair(a.format->id, a.engine ? a.engine->id : std::string()) <
           std::make_pair(b.format->id, b.engine ? b.engine->id : std::string());
  });
}

}  // namespace qsel
