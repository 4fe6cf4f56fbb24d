// The rules-mini fixture corpus (tests/fixtures/rules-mini) and query helpers
// for the rule-unit tests: each rule is exercised alone on these few records.
#pragma once
#include <algorithm>
#include <string>

#include "qsel/rules/rules.h"
#include "support/fixtures.h"

namespace qsel::test {

inline const Graph& mini() {
  static const Graph g = [] {
    Corpus c = load_corpus(source_dir() + "/tests/fixtures/rules-mini", schemas());
    if (!c.problems.empty()) throw std::logic_error(located(c.problems[0]));
    return Graph(std::move(c));
  }();
  return g;
}

inline Query mini_query(const std::string& gpu, const std::string& model = "m-dense") {
  Query q;
  q.accelerator = mini().find(gpu);
  q.target = mini().find(q.accelerator->str("target"));
  if (!model.empty()) q.model = model_from_record(*mini().find(model));
  return q;
}

// The candidates after `units` ran in order (each rule test runs the pipeline up to its rule).
inline Deliberation run_units(const Query& q, std::initializer_list<void (*)(Deliberation&)> units) {
  Deliberation d{mini(), q, {}, {}, {}, {}};
  enumerate_candidates(d);
  for (auto unit : units) unit(d);
  return d;
}

inline const Candidate* find(const Deliberation& d, const std::string& format, const std::string& engine = "eng-a") {
  for (const auto& c : d.candidates)
    if (c.format->id == format && (c.engine ? c.engine->id : std::string()) == engine) return &c;
  return nullptr;
}

inline const Exclusion* excluded(const Deliberation& d, const std::string& format, const std::string& rule) {
  for (const auto& e : d.excluded)
    if (e.format == format && e.rule == rule) return &e;
  return nullptr;
}

inline bool has(const std::vector<std::string>& v, const std::string& s) { return std::find(v.begin(), v.end(), s) != v.end(); }

inline bool mentions(const std::vector<std::string>& v, const std::string& s) {
  return std::any_of(v.begin(), v.end(), [&](const std::string& x) { return x.find(s) != std::string::npos; });
}

}  // namespace qsel::test
