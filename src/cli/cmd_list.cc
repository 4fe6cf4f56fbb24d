// qsel list [KIND]: the records of one kind as a table (or JSON).
#include <map>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "commands.h"
#include "qsel/cli/context.h"
#include "qsel/core/text.h"
#include "qsel/report/render.h"

namespace qsel {
namespace {

using json = nlohmann::ordered_json;

struct Column {
  const char* key;
  const char* header;
  const char* pointer;
};

// The summary columns of each kind; every record also carries id and name.
const std::vector<Column>& columns(Kind k) {
  static const std::map<Kind, std::vector<Column>> table = {
      {Kind::Format, {{"regime", "regime", "/regime"}, {"weight_bits", "W", "/weight_bits"}, {"activation_bits", "A", "/activation_bits"},
                      {"group", "group", "/weight_group_size"}, {"bpw", "bpw", "/bpw/nominal"}}},
      {Kind::Accelerator, {{"vendor", "vendor", "/vendor"}, {"target", "target", "/target"}, {"memory_gb", "GB", "/memory_gb"},
                           {"bandwidth_gbs", "GB/s", "/memory_bandwidth_gbs"}, {"market", "market", "/market"}}},
      {Kind::Target, {{"vendor", "vendor", "/vendor"}, {"platform", "platform", "/platform"}, {"family", "family", "/family"},
                      {"compute_capability", "cc", "/compute_capability"}}},
      {Kind::Kernel, {{"mode", "mode", "/mode"}, {"regimes", "regimes", "/regimes"}}},
      {Kind::Engine, {{"platforms", "platforms", "/platforms"}, {"matrix", "matrix", "/matrix"}}},
      {Kind::Matrix, {{"engine", "engine", "/engine"}, {"version", "version", "/version"}}},
      {Kind::Benchmark, {{"format", "format", "/format_id"}, {"metric", "metric", "/metric"}, {"value", "value", "/value"},
                         {"grade", "grade", "/grade"}}},
      {Kind::Gotcha, {{"severity", "severity", "/severity"}, {"silent", "silent", "/silent"}}},
      {Kind::Model, {{"params_b", "params (B)", "/params_b"}, {"layers", "layers", "/layers"}, {"kv_heads", "kv heads", "/kv_heads"},
                     {"attention", "attention", "/attention"}}},
      {Kind::Technique, {}}, {Kind::Fact, {}}, {Kind::Question, {}},
  };
  return table.at(k);
}

json list_kinds(const Graph& g) {
  json kinds = json::array();
  for (const auto& k : all_kinds())
    kinds.push_back({{"kind", k.name}, {"folder", std::string(k.plural) + "/"}, {"count", g.of_kind(k.kind).size()}});
  return {{"kinds", kinds}};
}

json list_records(const Graph& g, Kind kind) {
  json cols = json::array({{{"key", "id"}, {"header", "id"}}});
  for (const auto& c : columns(kind)) cols.push_back({{"key", c.key}, {"header", c.header}});
  cols.push_back({{"key", "name"}, {"header", "name"}});
  json rows = json::array();
  for (const Record* r : g.of_kind(kind)) {
    json row = {{"id", r->id}, {"name", r->name}, {"file", r->file}};
    for (const auto& c : columns(kind)) {
      nlohmann::json::json_pointer p(c.pointer);
      row[c.key] = r->data.contains(p) ? json(r->data.at(p)) : json();
    }
    rows.push_back(row);
  }
  return {{"kind", kind_name(kind)}, {"plural", kind_plural(kind)}, {"count", rows.size()}, {"columns", cols}, {"records", rows}};
}

}  // namespace

Runner setup_list(CLI::App& sub, Context& ctx) {
  auto kind = std::make_shared<std::string>();
  sub.add_option("kind", *kind, "Record kind, singular or plural (formats, accelerators, targets, kernels, engines, "
                                "matrices, benchmarks, gotchas, models, techniques, facts, questions)");
  return [kind, &ctx]() {
    require_format(ctx, "list", {"text", "json"});
    json result;
    if (kind->empty()) {
      result = list_kinds(ctx.graph());
    } else {
      auto k = parse_kind(*kind);
      if (!k) {
        std::vector<std::string> names;
        for (const auto& i : all_kinds()) names.push_back(i.plural);
        auto near = nearest(to_lower(*kind), names, 1);
        throw UsageError(fmt::format("unknown kind \"{}\"{}", *kind,
                                     near.empty() ? "; run `qsel list` for the kinds" : fmt::format("; did you mean \"{}\"?", near[0])));
      }
      result = list_records(ctx.graph(), *k);
    }
    if (ctx.json()) ctx.print_json(result);
    else *ctx.out << render_list(result, ctx.style());
    return 0;
  };
}

}  // namespace qsel
