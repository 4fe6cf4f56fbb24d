// QS032: two records of one kind answer to the same name (id or alias), or two
// accelerators to the same typed spelling once vendor words are set aside.
#include <algorithm>
#include <deque>
#include <string>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

#include "checks.h"
#include "qsel/core/text.h"
#include "qsel/graph/gpu_names.h"
#include "util.h"

namespace qsel::lint_checks {
namespace {

constexpr RuleInfo kInfo{
    "QS032", "name-collision", Severity::Error, false,
    "Two records of one kind answer to the same name: an id or alias, compared the way queries are.",
    {R"(Two records of the same kind whose ids or aliases are equal once case, spaces, '-' and '_' are ignored (the way `--gpu`, `--model`, `--engine` and `qsel show` compare names), or two accelerators whose aliases are the same typed spelling once vendor words (NVIDIA, GeForce, AMD, Radeon …) are set aside and with the same memory size in the name. The finding is reported on the alias (an id beats an alias), or on the later file when both are aliases.)",
     R"(A query resolves a name to one record. When two records claim it, qsel picks one silently: a copied `rtx-4090` record that keeps its aliases turns `qsel recommend --gpu 4090` into an answer about the copy. Nothing else in the corpus is wrong, so no other check notices.)",
     R"(# accelerators/rtx-4090-oc.yaml (copied from rtx-4090.yaml)
id: rtx-4090-oc
aliases: [RTX 4090, "4090"])",
     R"(accelerators/rtx-4090-oc.yaml:3:11: error: alias "RTX 4090" is also a name of rtx-4090 (accelerators/rtx-4090.yaml:1:5) (and 1 more shared name: "4090"): a query for it cannot tell the two apart [QS032 name-collision])",
     R"(Give the copy its own aliases (or none) and keep each name on the record it means. If two records really are one part, merge them and keep the other id as an alias of the survivor.)"}};

struct Claim {
  const Record* record;
  std::string pointer;  // "/id" or "/aliases/N"
  std::string name;
};

std::string at(const Claim& c) {
  Mark m = c.record->mark_of(c.pointer);
  return fmt::format("{}:{}:{}", c.record->file, m.line, m.column);
}

// Collisions between one pair of records, reported once: on the record that
// carries the colliding names as aliases (an id beats an alias), else on the later one.
struct Pair {
  const Claim* on = nullptr;
  const Record* other = nullptr;
  std::vector<std::string> names;
  std::string first_other_at, how;
};

void collide(std::vector<Pair>& pairs, const Claim& first, const Claim& later, const std::string& how) {
  const Claim& on = later.pointer == "/id" && first.pointer != "/id" ? first : later;
  const Claim& other = &on == &later ? first : later;
  for (auto& p : pairs)
    if (p.on->record == on.record && p.other == other.record) {
      p.names.push_back(on.name);
      return;
    }
  pairs.push_back({&on, other.record, {on.name}, at(other), how});
}

constexpr KeptField kReads[] = {{std::nullopt, "/id"}, {std::nullopt, "/aliases"}};  // their marks

// Whether `names` already holds `key`; adds it when not. A record has a
// handful of names, so a list beats a map.
bool seen_before(std::vector<std::string>& names, const std::string& key) {
  if (std::find(names.begin(), names.end(), key) != names.end()) return true;
  names.push_back(key);
  return false;
}

void run(CheckContext& c) {
  const Graph& g = c.graph();
  for (const auto& k : all_kinds()) {
    std::deque<Claim> store;  // stable addresses for the maps below
    std::unordered_map<std::string, const Claim*> exact, spelled;
    std::vector<Pair> pairs;
    std::vector<const Claim*> claims;
    std::vector<std::string> own, own_spelling;  // a record may repeat a name in another spelling
    for (const Record* r : g.of_kind(k.kind)) {
      claims.clear();
      own.clear();
      own_spelling.clear();
      claims.push_back(&store.emplace_back(Claim{r, "/id", r->id}));
      for (std::size_t i = 0; i < r->aliases.size(); ++i)
        claims.push_back(&store.emplace_back(Claim{r, fmt::format("/aliases/{}", i), r->aliases[i]}));
      for (const Claim* cl : claims) {
        std::string key = normalize_name(cl->name);
        if (!seen_before(own, key)) {
          auto [it, fresh] = exact.emplace(key, cl);
          if (!fresh && it->second->record != r) collide(pairs, *it->second, *cl, "");
        }
        if (k.kind != Kind::Accelerator) continue;
        GpuName n = split_gpu_name(cl->name);
        std::string spelling = normalize_name(n.rest) + "@" + number_text(n.memory_gb);
        if (n.rest.empty() || seen_before(own_spelling, spelling)) continue;
        auto [it, fresh] = spelled.emplace(spelling, cl);
        if (!fresh && it->second->record != r && normalize_name(it->second->name) != key)
          collide(pairs, *it->second, *cl, fmt::format(" once vendor words are set aside (\"{}\")", n.rest));
      }
    }
    for (const auto& p : pairs) {
      std::string what = p.on->pointer == "/id" ? "id" : "alias";
      std::string more = p.names.size() == 1 ? "" : fmt::format(" (and {} more shared name{}:", p.names.size() - 1, p.names.size() == 2 ? "" : "s");
      for (std::size_t i = 1; i < p.names.size(); ++i) more += " " + quote_value(p.names[i]);
      if (p.names.size() > 1) more += ")";
      c.report(*p.on->record, p.on->pointer,
               fmt::format("{} {} is also a name of {} ({}){}{}: a query for it cannot tell the two apart", what,
                           quote_value(p.names[0]), p.other->id, p.first_other_at, p.how, more));
    }
  }
}

}  // namespace

Check name_collision() { return {.info = &kInfo, .run = run, .reads = kReads}; }

}  // namespace qsel::lint_checks
