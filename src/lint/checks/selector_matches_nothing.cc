// QS024: a target selector that matches no target record.
#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "checks.h"
#include "qsel/graph/selector.h"
#include "util.h"

namespace qsel::lint_checks {
namespace {

constexpr RuleInfo kInfo{
    "QS024", "selector-matches-nothing", Severity::Warning, false,
    "A target selector (runs_on, when, match, applies.targets) matches no target in the corpus.",
    {R"(A target selector — a kernel's or engine's `runs_on`, a `kernel_selection` entry's `when`, a matrix row's or uncovered entry's `match`, the `applies.targets` of a gotcha, technique, fact or question — that no target record satisfies: every condition given must hold (`targets`, `not_targets`, `min_cc`/`max_cc` against `compute_capability`, `vendors`, `platforms`, `families`), and none does. Corpora without any target record are not checked.)",
     R"(A selector that matches nothing makes its record inert: a gotcha that never applies is never shown, a kernel that runs nowhere is never chosen, a matrix row covers no part. The usual causes are a misspelt family, a capability range written backwards, or a vendor/platform pair that cannot co-occur.)",
     R"(# kernels/marlin.yaml
runs_on:
  min_cc: 8.0
  max_cc: 7.5      # backwards: no target has 8.0 <= cc <= 7.5
  platforms: [cuda])",
     R"(kernels/marlin.yaml:3:3: warning: runs_on matches no target in the corpus: {"max_cc":7.5,"min_cc":8.0,"platforms":["cuda"]} [QS024 selector-matches-nothing])",
     R"(Correct the selector so it names the targets you mean — `qsel list targets` shows each target's vendor, platform, family and compute capability. If the records describe hardware the corpus has no target for yet, add the target record.)"}};

struct Site {
  Kind kind;
  const char* pattern;
};

constexpr std::array<Site, 9> kSites = {{
    {Kind::Kernel, "/runs_on"},
    {Kind::Engine, "/runs_on"},
    {Kind::Engine, "/kernel_selection/*/when"},
    {Kind::Matrix, "/rows/*/match"},
    {Kind::Matrix, "/uncovered/*/match"},
    {Kind::Gotcha, "/applies/targets"},
    {Kind::Technique, "/applies/targets"},
    {Kind::Fact, "/applies/targets"},
    {Kind::Question, "/applies/targets"},
}};

std::string last_token(const std::string& ptr) { return ptr.substr(ptr.rfind('/') + 1); }

// `targets` is listed once per run: matching_targets() per selector listed (and
// sorted) every record again for each one, quadratic in the corpus size.
// A selector that names its targets can match only those: they are looked up,
// not every target tried (a gotcha corpus has tens of thousands of selectors).
bool matches_some(const Graph& g, const json& selector, const std::vector<const Record*>& targets) {
  if (auto named = selector.find("targets"); named != selector.end()) {
    for (const json& id : *named) {  // a lone string is a list of one, as selector_matches reads it
      if (!id.is_string()) continue;
      const Record* t = g.find(id.get_ref<const std::string&>());
      if (t && t->kind == Kind::Target && selector_matches(selector, *t)) return true;
    }
    return false;
  }
  return std::any_of(targets.begin(), targets.end(), [&](const Record* t) { return selector_matches(selector, *t); });
}

void check_record(CheckContext& c, const Record& r, const char* pattern, const std::vector<const Record*>& targets) {
  for_each_at(r.data, pattern, [&](const std::string& ptr, const json& selector) {
    if (!selector.is_object() || matches_some(c.graph(), selector, targets)) return;
    // A selector naming a target that failed its schema matches nothing only because of
    // that record's own finding: one mistake, one finding.
    if (auto it = selector.find("targets"); it != selector.end() && it->is_array())
      for (const auto& id : *it)
        if (id.is_string() && c.graph().unvalidated(id.get<std::string>())) return;
    c.report(r, ptr, fmt::format("{} matches no target in the corpus: {}", last_token(ptr), selector.dump()));
  });
}

void run(CheckContext& c) {
  std::vector<const Record*> targets = c.graph().of_kind(Kind::Target);
  if (targets.empty()) return;
  for (const Site& s : kSites)
    for (const Record* r : c.graph().of_kind(s.kind)) check_record(c, *r, s.pattern, targets);
}

// Each site's selectors (its pattern up to the first "*") and every field of a
// target, which selector_matches reads.
const std::vector<KeptField>& reads() {
  static const std::vector<std::string> selectors = [] {
    std::vector<std::string> out;
    for (const Site& s : kSites) out.push_back(std::string(s.pattern).substr(0, std::string(s.pattern).find("/*")));
    return out;
  }();
  static const std::vector<KeptField> out = [] {
    std::vector<KeptField> r;
    for (std::size_t i = 0; i < kSites.size(); ++i) r.push_back({kSites[i].kind, selectors[i].c_str()});
    r.push_back({Kind::Target, ""});
    return r;
  }();
  return out;
}

}  // namespace

Check selector_matches_nothing() { return {.info = &kInfo, .run = run, .reads = reads()}; }

}  // namespace qsel::lint_checks
