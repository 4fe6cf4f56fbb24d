// qsel graph: the record graph, or the neighbourhood of one record, as nodes and edges.
#include <algorithm>
#include <deque>
#include <map>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "qsel/core/errors.h"
#include "qsel/core/text.h"
#include "qsel/explain/browse.h"
#include "qsel/rules/verdict.h"

namespace qsel {
using ojson = nlohmann::ordered_json;
namespace {

constexpr int kUnreached = -1;  // distance of a record outside the selection

std::vector<Kind> parse_kinds(const std::vector<std::string>& names) {
  std::vector<Kind> out;
  for (const auto& n : names) {
    const auto& kinds = all_kinds();
    auto it = std::find_if(kinds.begin(), kinds.end(), [&](const KindInfo& i) { return n == kind_name(i.kind); });
    if (it == kinds.end()) {
      std::vector<std::string> valid;
      for (const auto& k : kinds) valid.push_back(kind_name(k.kind));
      throw UsageError(fmt::format("--kinds: unknown kind {}; expected {}", quote_value(n), fmt::join(valid, ", ")));
    }
    out.push_back(it->kind);
  }
  return out;
}

// --edges: labels the corpus's graph has, else a usage error naming them.
std::set<std::string> edge_labels(const Graph& g, const std::vector<std::string>& asked) {
  if (asked.empty()) return {};
  std::set<std::string> out;
  std::vector<std::string> all = g.edge_labels();
  for (const auto& a : asked) {
    require_one_of(a, all, "edge label (--edges)");
    out.insert(a);
  }
  return out;
}

// Hops from `root` to every record within `depth`, following edges both ways.
std::vector<int> distances(const Graph& g, std::size_t root, int depth) {
  std::vector<int> dist(g.records().size(), kUnreached);
  std::deque<std::size_t> queue{root};
  dist[root] = 0;
  auto visit = [&](std::size_t next, std::size_t from) {
    if (dist[next] != kUnreached) return;
    dist[next] = dist[from] + 1;
    queue.push_back(next);
  };
  while (!queue.empty()) {
    std::size_t n = queue.front();
    queue.pop_front();
    if (dist[n] == depth) continue;
    for (const Edge* e : g.out_edges(n))
      if (e->to) visit(*e->to, n);
    for (const Edge* e : g.in_edges(n)) visit(e->from, n);
  }
  return dist;
}

std::size_t kind_rank(Kind k) {
  const auto& kinds = all_kinds();
  return static_cast<std::size_t>(std::find_if(kinds.begin(), kinds.end(), [&](const KindInfo& i) { return i.kind == k; }) - kinds.begin());
}

// The selected records: nearest first, then by kind and id.
std::vector<std::size_t> ordered(const Graph& g, const std::vector<int>& dist) {
  std::vector<std::size_t> nodes;
  for (std::size_t i = 0; i < dist.size(); ++i)
    if (dist[i] != kUnreached) nodes.push_back(i);
  auto key = [&](std::size_t i) { return std::tuple(dist[i], kind_rank(g.record(i).kind), g.record(i).id); };
  std::sort(nodes.begin(), nodes.end(), [&](std::size_t a, std::size_t b) { return key(a) < key(b); });
  return nodes;
}

std::string missing_reason(const Graph& g, const Edge& e) {
  if (auto i = g.index_of(e.to_id)) return fmt::format("a {}, which {} cannot name", kind_name(g.record(*i).kind), e.label);
  return "no such record";
}

// Whether an edge from `n` belongs to the drawing: both ends selected, and not both on
// the outer ring (those edges say nothing about the root and swamp the layout).
bool drawn(const Edge& e, std::size_t n, const std::vector<int>& dist, int outer) {
  if (!e.to) return true;
  if (dist[*e.to] == kUnreached) return false;
  return outer == kUnreached || dist[n] < outer || dist[*e.to] < outer;
}

// Edges that claim how a format runs on a part (a format's native_support and
// emulated_support, an accelerator's census), and the path each claims.
const char* claimed_path(std::string_view label) {
  if (label == "native-on" || label == "census-native") return "native";
  if (label == "emulated-on" || label == "census-emulated") return "emulated";
  return nullptr;
}

// qsel's verdict for a format on a part, as explain F --on PART gives it (rules/verdict.h), once per pair.
class Verdicts {
 public:
  explicit Verdicts(const Graph& g) : g_(g) {}
  const std::string& of(const Record& format, const Record& part) {
    auto key = std::pair(format.id, part.id);
    if (auto it = memo_.find(key); it != memo_.end()) return it->second;
    Query q;
    q.accelerator = &part;
    q.target = g_.find(part.str("target"));
    std::string v = q.target ? format_verdict(g_, q, format).value : "unknown";
    return memo_[key] = v;
  }

 private:
  const Graph& g_;
  std::map<std::pair<std::string, std::string>, std::string> memo_;
};

// A support edge's claim beside qsel's verdict for the pair.
void add_verdict(ojson& edge, const Graph& g, std::size_t from, const Edge& e, Verdicts& verdicts) {
  const char* claim = claimed_path(e.label);
  if (!claim || !e.to) return;
  const Record& a = g.record(from);
  const Record& b = g.record(*e.to);
  const Record* format = a.kind == Kind::Format ? &a : b.kind == Kind::Format ? &b : nullptr;
  const Record* part = a.kind == Kind::Accelerator ? &a : b.kind == Kind::Accelerator ? &b : nullptr;
  if (!format || !part) return;
  const std::string& v = verdicts.of(*format, *part);
  edge["verdict"] = v;
  // "emulated" in a record (its census's word) means it runs without the format's own
  // matrix unit: qsel's dequant (weights upcast) and emulated paths both.
  edge["agrees"] = std::string_view(claim) == "native" ? v == "native" : (v == "emulated" || v == "dequant");
}

// Edges out of the selected records that are drawn, plus dangling ones; repeats dropped.
ojson edges_json(const Graph& g, const std::vector<std::size_t>& nodes, const std::vector<int>& dist, int outer, ojson& missing,
                const std::set<std::string>& labels) {
  ojson edges = ojson::array();
  std::set<std::tuple<std::size_t, std::string, std::string>> seen;
  std::set<std::string> missing_ids;
  Verdicts verdicts(g);
  for (std::size_t n : nodes)
    for (const Edge* e : g.out_edges(n)) {
      if (!drawn(*e, n, dist, outer)) continue;
      if (!labels.empty() && !labels.count(std::string(e->label))) continue;
      if (!seen.insert({n, e->to_id, std::string(e->label)}).second) continue;
      ojson edge = {{"from", g.record(n).id}, {"to", e->to_id}, {"label", e->label}};
      add_verdict(edge, g, n, *e, verdicts);
      if (!e->to) {
        edge["missing"] = true;
        if (missing_ids.insert(e->to_id).second)
          missing.push_back({{"id", e->to_id}, {"kind", nullptr}, {"missing", true}, {"reason", missing_reason(g, *e)}});
      }
      edges.push_back(edge);
    }
  return edges;
}

}  // namespace

ojson graph_answer(const Graph& g, const GraphQuery& o) {
  std::vector<int> dist(g.records().size(), 0);
  const Record* root = nullptr;
  if (!o.around.empty()) {
    Resolution r = g.resolve(o.around);
    if (!r) throw_unknown("record", o.around, r);
    root = r.record;
    dist = distances(g, *g.index_of(root->id), o.depth);
  }
  if (!o.kinds.empty()) {
    auto keep = parse_kinds(o.kinds);
    for (std::size_t i = 0; i < dist.size(); ++i)
      if (std::find(keep.begin(), keep.end(), g.record(i).kind) == keep.end() && g.records()[i].id != (root ? root->id : ""))
        dist[i] = kUnreached;
  }
  std::set<std::string> labels = edge_labels(g, o.edges);
  if (!labels.empty()) {  // only the records an edge of those labels touches (and the root)
    std::vector<bool> touched(dist.size(), false);
    for (std::size_t i = 0; i < dist.size(); ++i) {
      if (dist[i] == kUnreached) continue;
      for (const Edge* e : g.out_edges(i))
        if (labels.count(std::string(e->label)) && e->to && dist[*e->to] != kUnreached) touched[i] = touched[*e->to] = true;
    }
    for (std::size_t i = 0; i < dist.size(); ++i)
      if (!touched[i] && !(root && g.records()[i].id == root->id)) dist[i] = kUnreached;
  }
  auto nodes = ordered(g, dist);
  ojson node_list = ojson::array(), missing = ojson::array();
  for (std::size_t n : nodes) {
    const Record& r = g.record(n);
    node_list.push_back({{"id", r.id}, {"kind", kind_name(r.kind)}, {"name", r.name}, {"distance", dist[n]}});
  }
  ojson edges = edges_json(g, nodes, dist, root ? o.depth : kUnreached, missing, labels);
  for (auto& m : missing) node_list.push_back(m);
  return {{"root", root ? ojson(root->id) : ojson()}, {"depth", root ? ojson(o.depth) : ojson()},
          {"node_count", node_list.size()}, {"edge_count", edges.size()}, {"nodes", node_list}, {"edges", edges}};
}

}  // namespace qsel
