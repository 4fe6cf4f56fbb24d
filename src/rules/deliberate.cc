// The rule table and the pipeline that applies it.
#include <algorithm>
#include <chrono>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "qsel/core/timing.h"
#include "qsel/loader/corpus_blob.h"
#include "qsel/rules/launch.h"
#include "qsel/rules/rules.h"
#include "qsel/rules/rule_support.h"

namespace qsel {
using nlohmann::json;
namespace {

std::vector<const Record*> formats_where(const Graph& g, bool (*pred)(const Record&)) {
  std::vector<const Record*> out;
  for (const Record* f : g.of_kind(Kind::Format))
    if (pred(*f)) out.push_back(f);
  return out;
}

std::vector<const Record*> matrices(const Graph& g) { return g.of_kind(Kind::Matrix); }
std::vector<const Record*> engines(const Graph& g) { return g.of_kind(Kind::Engine); }
std::vector<const Record*> models(const Graph& g) { return g.of_kind(Kind::Model); }
std::vector<const Record*> preferring(const Graph& g) {
  return formats_where(g, [](const Record& f) { return f.data.contains("preferred_over") || f.data.value("portable", false); });
}
std::vector<const Record*> w4a16(const Graph& g) {
  auto out = formats_where(g, [](const Record& f) { return f.str("regime") == "w4a16"; });
  for (const Record* k : g.of_kind(Kind::Kernel))
    if (k->data.contains("equivalent_to")) out.push_back(k);
  return out;
}
std::vector<const Record*> gguf(const Graph& g) {
  auto out = formats_where(g, [](const Record& f) { return f.str("scheme") == "gguf"; });
  for (const Record* t : g.of_kind(Kind::Technique)) out.push_back(t);
  return out;
}
std::vector<const Record*> kv(const Graph& g) { return formats_where(g, [](const Record& f) { return f.str("regime") == "kv-cache"; }); }
std::vector<const Record*> not_choices(const Graph& g) {
  return formats_where(g, [](const Record& f) { return !f.data.value("post_training", true) || f.data.value("research_only", false); });
}

}  // namespace

const std::vector<SelectionRule>& selection_rules() {
  // Statements and examples live in docs/rules/<id>.md (embedded): no record id here.
  static const std::vector<SelectionRule> table = {
      {"rule-7", "Non-post-training families are not choices", apply_rule7, not_choices},
      {"model-support", "An engine must implement the model's architecture", apply_model_support, engines},
      {"rule-1", "A format record tells you what exists, not what runs", apply_rule1, matrices},
      {"rule-2", "Verify which kernel is actually running", apply_rule2, engines},
      {"releases", "The format a model ships in comes first", apply_releases, models},
      {"rule-4", "W4A16: group size is the scheme, the kernel is chosen for you", apply_rule4, w4a16},
      {"memory", "Memory fit and decode ceiling", compute_memory, nullptr},
      {"rule-5", "GGUF: match bits per weight, not a quant name", apply_rule5, gguf},
      {"rule-6", "8-bit KV cache: widely deployed, unmeasured", apply_rule6, kv},
      {"rule-3", "On Blackwell NVFP4 beats MXFP4 on risk, loses on portability", apply_rule3, preferring},
  };
  return table;
}

const SelectionRule* find_selection_rule(std::string_view id) {
  for (const auto& r : selection_rules())
    if (id == r.id) return &r;
  return nullptr;
}

std::string rule_doc(std::string_view id) {
  const auto& docs = embedded().docs;
  auto it = docs.find(std::string(id));
  return it == docs.end() ? std::string() : it->second;
}

const Calibration& calibration_of(const Deliberation& d) {
  // One fit per graph, as the quality model: the per-backend terms hold each backend's runs out in turn.
  if (!d.calibration)
    d.calibration = d.graph.memo<Calibration>("calibration", [&] {
      auto c = std::make_shared<Calibration>(speed_rows(d.graph));
      c->fit_tensor_parallel(tp_rows(d.graph));
      c->fit_serving_floor(serving_rows(d.graph));
      return std::shared_ptr<const Calibration>(c);
    });
  return *d.calibration;
}

const QualityModel& quality_model_of(const Deliberation& d) {
  if (!d.quality_model)
    d.quality_model = d.graph.memo<QualityModel>("quality-model", [&] { return std::make_shared<const QualityModel>(d.graph); });
  return *d.quality_model;
}

Deliberation deliberate(const Graph& g, const Query& q, const Fitted* fitted) {
  Deliberation d{g, q, {}, {}, {}, {}, {}, {}};
  if (fitted) {
    d.calibration = fitted->calibration;
    d.quality_model = fitted->quality_model;
  }
  auto started = std::chrono::steady_clock::now();
  enumerate_candidates(d);
  spdlog::info("rules: {} candidate(s) (format x engine) on {}{}", d.candidates.size(), q.target ? q.target->id : "?",
               q.accelerator ? " (" + q.accelerator->id + ")" : std::string());
  for (const auto& r : selection_rules()) {
    auto rule_started = std::chrono::steady_clock::now();
    std::size_t before = d.excluded.size(), had = d.candidates.size(), warned = 0;
    for (const auto& c : d.candidates) warned += c.warnings.size();
    r.apply(d);
    std::size_t warned_after = 0;
    for (const auto& c : d.candidates) warned_after += c.warnings.size();
    spdlog::info("rules: {}: {} candidate(s) removed, {} exclusion(s) stated, {} warning(s) added; {} left ({} ms)", r.id,
                 had - std::min(had, d.candidates.size()), d.excluded.size() - before, warned_after - warned, d.candidates.size(),
                 elapsed_ms(rule_started));
    for (std::size_t i = before; i < d.excluded.size(); ++i) {
      const Exclusion& e = d.excluded[i];
      spdlog::debug("rules: {} excludes {}{}: {}", r.id, e.format, e.engine.empty() ? "" : " on " + e.engine, e.reason);
    }
  }
  rank_candidates(d);
  assign_rows(d);
  launch_commands(d);
  backend_builds(d);
  for (std::size_t i = 0; i < d.candidates.size(); ++i) {
    const Candidate& c = d.candidates[i];
    spdlog::debug("rank {}: {} on {} ({}, tier {}){}", i + 1, c.format ? c.format->id : "?", c.engine ? c.engine->id : "any engine",
                  c.path, c.rank_tier, c.memory ? (c.memory->fits ? ", fits" : ", does not fit") : "");
    for (const auto& why : c.why) spdlog::debug("  {}", why);
  }
  nothing_fits_lead(d);
  fit_hints(d);
  floor_hints(d);
  tradeoff_notes(d);
  restriction_lead(d);
  spdlog::info("rules: {} candidate(s) ranked, {} excluded, in {} ms", d.candidates.size(), d.excluded.size(), elapsed_ms(started));
  return d;
}

std::optional<Candidate> first_deployment(const Deliberation& d, const Query& q) {
  Fitted fitted{d.calibration, d.quality_model};
  Deliberation other = deliberate(d.graph, q, &fitted);
  if (other.candidates.empty() || !other.deployable || !rule_util::fits(other.candidates.front())) return std::nullopt;
  return other.candidates.front();
}

}  // namespace qsel
