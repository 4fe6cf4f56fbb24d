// qsel show ID: one record, where it came from, and every edge in and out,
// grouped by the kind of record at the other end.
#include <algorithm>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "commands.h"
#include "qsel/core/json_number.h"
#include "qsel/cli/context.h"
#include "qsel/core/citation.h"
#include "qsel/report/json_contract.h"
#include "qsel/report/render.h"

namespace qsel {
using ojson = nlohmann::ordered_json;
namespace {

std::string resolution_note(const std::string& query, const Resolution& r) {
  if (r.how == Resolution::How::Family) {
    std::vector<std::string> others;
    for (const Record* o : r.others) others.push_back(o->id);
    return fmt::format("(\"{}\" → {}, the family default; {} also exist{})", query, r.record->id, fmt::join(others, ", "),
                       others.size() == 1 ? "s" : "");
  }
  std::string note = fmt::format("(\"{}\" is an alias of {})", query, r.record->id);
  if (!r.ambiguous.empty()) {
    std::vector<std::string> ids;
    for (const Record* o : r.ambiguous) ids.push_back(o->id);
    note += fmt::format("; also an alias of {}", fmt::join(ids, ", "));
  }
  return note;
}

ojson edge_json(const Graph& g, const Edge& e, bool outgoing) {
  ojson j = {{"label", e.label}, {"path", e.pointer}};
  if (outgoing) {
    j["id"] = e.to_id;
    if (e.to) j["kind"] = kind_name(g.record(*e.to).kind);
    else if (auto i = g.index_of(e.to_id)) { j["kind"] = kind_name(g.record(*i).kind); j["wrong_kind"] = true; }
    else j["dangling"] = true;
  } else {
    j["id"] = g.record(e.from).id;
    j["kind"] = kind_name(g.record(e.from).kind);
  }
  return j;
}

// The kind an edge's other end is grouped under: its kind, or "missing" / "wrong_kind".
std::string other_kind(const ojson& edge) {
  if (edge.value("dangling", false)) return "missing";
  if (edge.value("wrong_kind", false)) return "wrong_kind";
  return edge["kind"];
}

// {kind: {label: [ids]}}: kinds in registry order, labels and ids in first-seen order, no repeats.
ojson grouped(const ojson& edges) {
  std::vector<std::string> order;
  for (const auto& k : all_kinds()) order.push_back(k.name);
  order.insert(order.end(), {"wrong_kind", "missing"});
  ojson out = ojson::object();
  for (const auto& kind : order)
    for (const auto& e : edges) {
      if (other_kind(e) != kind) continue;
      ojson& ids = out[kind][e["label"].get<std::string>()];
      if (std::find(ids.begin(), ids.end(), e["id"]) == ids.end()) ids.push_back(e["id"]);
    }
  return out;
}

}  // namespace

ojson show_json(const Graph& g, const Record& r, const std::string& query, const Resolution& res) {
  std::size_t idx = *g.index_of(r.id);
  ojson out = {{"id", r.id}, {"kind", kind_name(r.kind)}, {"name", r.name}, {"file", r.file},
              {"line", r.mark().line}, {"column", r.mark().column}, {"record", in_source_order(r.data, r.marks)}};
  if (res.how != Resolution::How::Id || !res.ambiguous.empty())
    out["resolved"] = {{"query", query}, {"how", res.how == Resolution::How::Family ? "family" : "alias"},
                       {"note", resolution_note(query, res)}};
  out["review"] = {{"status", r.str("status")}, {"confidence", r.data.value("confidence", nlohmann::json())},
                   {"last_review", r.data.contains("last_review") ? ojson(r.str("last_review")) : ojson()}};
  if (r.kind == Kind::Benchmark) out["review"]["grade"] = r.str("grade");
  out["census_notes"] = ojson::array();
  for (const auto& s : array_field(r.data, "sources"))
    if (is_census_note(s))
      out["census_notes"].push_back({{"note", s.value("title", std::string()).substr(0, 6) + " " + s.value("section", std::string())},
                                     {"claims", s.value("quote", std::string())}});
  if (holds_engine_facts(r.kind)) {
    Freshness f = freshness_of(r.data);
    out["read_at"] = {{"oldest", f.oldest}, {"newest", f.newest}, {"dated_sources", f.dated}, {"undated_code_citations", f.undated_code}};
  }
  out["edges_out"] = ojson::array();
  for (const Edge* e : g.out_edges(idx)) out["edges_out"].push_back(edge_json(g, *e, true));
  out["edges_in"] = ojson::array();
  for (const Edge* e : g.in_edges(idx)) out["edges_in"].push_back(edge_json(g, *e, false));
  out["refers_to"] = grouped(out["edges_out"]);
  out["referred_to_by"] = grouped(out["edges_in"]);
  return out;
}

Runner setup_show(CLI::App& sub, Context& ctx) {
  auto id = std::make_shared<std::string>();
  sub.add_option("id", *id, "Record id or alias (h100, \"H100 SXM\", q4_k_m)")->required();
  return [id, &ctx]() {
    require_format(ctx, "show");
    const Graph& g = ctx.graph();
    Resolution res = g.resolve(*id);
    if (!res) throw_unknown("record", *id, res);
    ojson result = show_json(g, *res.record, *id, res);
    if (ctx.json()) ctx.print_json(versioned(result));
    else *ctx.out << render_show(terminal_safe(result, true), ctx.style());
    return 0;
  };
}

}  // namespace qsel
