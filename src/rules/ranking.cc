// Ranking: candidates that fit first; then those without an unconditional
// blocker, uncontested, not emulated; then the rank tier the rules set (Rule 3);
// then the roofline ceiling (bytes decide at batch 1, compute joins at large
// batch); then the grade of the format's quality evidence.
#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "qsel/rules/rules.h"
#include "rule_support.h"

namespace qsel {
namespace {

using nlohmann::json;

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

// Below 4 bits the recorded accuracy cost jumps (3-bit 0.5-1.0 ppl, 2-bit 2.0+):
// such candidates rank after every fitting candidate of 4 bits or more.
constexpr double kQualityFloorBpw = 3.95;

bool below_quality_floor(const Candidate& c) {
  double bpw = c.memory ? c.memory->bpw : c.format->data.value("weight_bits", 16.0);
  return bpw > 0 && bpw < kQualityFloorBpw;
}

// Ceilings within 5% of each other are a tie: the model is not that precise.
int ceiling_bucket(const Candidate& c) {
  double v = ceiling(c);
  return v > 0 ? -static_cast<int>(std::floor(std::log(v) / std::log(1.05))) : 0;
}

auto sort_key(const Candidate& c) {
  bool fits = !c.memory || c.memory->fits;
  bool lower_bound = c.memory && (c.memory->bpw <= 0 || c.memory->bpw_source.find("lower bound") != std::string::npos);
  bool tensor_cores = c.kernel && c.kernel->data.value("tensor_cores", false);
  return std::make_tuple(!fits, has_blocker(c), c.contested(), c.path == "emulated", c.rank_tier, below_quality_floor(c),
                         lower_bound, ceiling_bucket(c), grade_rank(c.evidence_grade.substr(0, c.evidence_grade.find(' '))),
                         c.cells.empty(), !tensor_cores, c.format->id, c.engine ? c.engine->id : std::string());
}

// Facts that record the accuracy cost of a regime (cited on sub-4-bit candidates).
std::vector<std::string> cost_facts(const Graph& g, const std::string& regime) {
  std::vector<std::string> out;
  for (const Record* f : g.of_kind(Kind::Fact))
    for (const auto& r : f->strings("/applies/regimes"))
      if (r == regime) out.push_back(f->id);
  return out;
}

}  // namespace

void rank_candidates(Deliberation& d) {
  for (auto& c : d.candidates) {
    c.evidence_grade = evidence_grade(d.graph, *c.format);
    if (!below_quality_floor(c)) continue;
    auto facts = cost_facts(d.graph, c.format->str("regime"));
    c.why.push_back(fmt::format("ranked after candidates of 4 bits or more: below 4 bits the recorded accuracy cost jumps{}",
                                facts.empty() ? "" : fmt::format(" [{}]", fmt::join(facts, ", "))));
    for (const auto& f : facts) rule_util::add_unique(c.evidence, f);
  }
  d.notes.push_back("ranking: fits, no unconditional blocker, uncontested, not emulated, Rule 3, 4 bits or more, "
                    "bpw known (not a lower bound), decode ceiling (5% buckets), evidence grade, matrix-confirmed, tensor-core kernel");
  std::stable_sort(d.candidates.begin(), d.candidates.end(),
                   [](const Candidate& a, const Candidate& b) { return sort_key(a) < sort_key(b); });
}

}  // namespace qsel
