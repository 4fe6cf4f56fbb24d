// qsel list: the records of one kind with the columns of their table, filtered.
#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <set>

#include <fmt/format.h>

#include "qsel/core/errors.h"
#include "qsel/core/json_number.h"
#include "qsel/core/text.h"
#include "qsel/detect/resolve_gpu.h"
#include "qsel/explain/browse.h"
#include "qsel/graph/engines.h"
#include "qsel/rules/deliberation.h"
#include "qsel/rules/query.h"
#include "qsel/rules/rule_support.h"
#include "qsel/rules/rules.h"
#include "qsel/rules/verdict.h"

namespace qsel {
using ojson = nlohmann::ordered_json;
namespace {

struct Column {
  const char* key;
  const char* header;
  const char* pointer;
  bool detail = false;  // JSON and Markdown only: the text table stays narrow
};

// The summary columns of each kind; every record also carries id and name.
const std::vector<Column>& columns(Kind k) {
  static const std::map<Kind, std::vector<Column>> table = {
      {Kind::Format, {{"regime", "regime", "/regime"}, {"weight_bits", "W", "/weight_bits"}, {"activation_bits", "A", "/activation_bits"},
                      {"group", "group", "/weight_group_size"}, {"bpw", "bpw", "/bpw/nominal"}}},
      {Kind::Accelerator, {{"vendor", "vendor", "/vendor"}, {"target", "target", "/target"}, {"memory_gb", "GiB", "/memory_gb"},
                           {"memory_type", "memory", "/memory_type", true}, {"bandwidth_gbs", "GB/s", "/memory_bandwidth_gbs"},
                           {"bf16_tflops", "BF16 TFLOPS", "/tflops/bf16", true}, {"fp8_tflops", "FP8 TFLOPS", "/tflops/fp8", true},
                           {"fp4_tflops", "FP4 TFLOPS", "/tflops/fp4", true}, {"market", "market", "/market"},
                           {"release_year", "year", "/release_year", true}}},
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

ojson list_kinds(const Graph& g) {
  ojson kinds = ojson::array();
  for (const auto& k : all_kinds())
    kinds.push_back({{"kind", k.name}, {"folder", std::string(k.plural) + "/"}, {"count", g.of_kind(k.kind).size()}});
  return {{"kinds", kinds}};
}

ojson list_records(const std::vector<const Record*>& records, Kind kind) {
  ojson cols = ojson::array({{{"key", "id"}, {"header", "id"}}});
  for (const auto& c : columns(kind)) cols.push_back({{"key", c.key}, {"header", c.header}, {"detail", c.detail}});
  cols.push_back({{"key", "name"}, {"header", "name"}});
  ojson rows = ojson::array();
  for (const Record* r : records) {
    ojson row = {{"id", r->id}, {"name", r->name}, {"file", r->file}};
    for (const auto& c : columns(kind)) {
      nlohmann::json::json_pointer p(c.pointer);
      row[c.key] = r->data.contains(p) ? ojson(r->data.at(p)) : ojson();
    }
    row["sources"] = ojson::array();
    for (const auto& src : array_field(r->data, "sources"))
      if (src.is_object())
        row["sources"].push_back({{"title", src.value("title", std::string())}, {"url", src.contains("url") ? ojson(src["url"]) : ojson()}});
    rows.push_back(row);
  }
  return {{"kind", kind_name(kind)}, {"plural", kind_plural(kind)}, {"count", rows.size()}, {"columns", cols}, {"records", rows}};
}

// ---- filters ----------------------------------------------------------------------------

using Keep = std::function<bool(const Record&)>;
// Builds what a filter keeps from its value; sets `shown` to the value as resolved.
using MakeKeep = Keep (*)(const Graph& g, const ListEnums& enums, const std::string& value, Kind kind, std::string& shown);

Keep on_list(const std::string& pointer, std::string id) {
  return [pointer, id](const Record& r) { return rule_util::contains(r.strings(pointer), id); };
}

Keep field_is(const char* field, const std::string& value) {
  return [field, value](const Record& r) { return r.str(field) == value; };
}

// Formats a footnoted cell ("Y*") leaves out: the footnote's excludes_formats.
std::vector<std::string> footnote_excludes(const Record& m, const std::string& cell) {
  std::string mark = cell.substr(1);
  if (mark.empty()) return {};
  return m.strings("/footnotes/" + mark + "/excludes_formats");
}

// Formats with a Y cell (Y, Y*, …) in some row of the matrix, less those the cell's footnote excludes.
std::vector<std::string> matrix_yes_formats(const Record& m) {
  std::vector<std::string> out;
  for (const auto& c : m.data["columns"])
    for (const auto& row : m.data["rows"]) {
      auto cell = row["cells"].value(c["key"].get<std::string>(), std::string());
      if (cell.empty() || cell[0] != 'Y') continue;
      auto excluded = footnote_excludes(m, cell);
      for (const auto& f : array_field(c, "formats"))
        if (!rule_util::contains(excluded, f)) out.push_back(f);
    }
  return out;
}

// engine.formats, the formats its kernel_selection names, and its matrices' Y columns.
std::set<std::string> engine_formats(const Graph& g, const Record& e) {
  auto ids = served_formats(e);
  for (const Record* m : matrices_of(g, e))
    for (const auto& f : matrix_yes_formats(*m)) ids.push_back(f);
  return {ids.begin(), ids.end()};
}

// The kernels the engine's kernel_selection picks, and those whose `engines` name it.
Keep engine_kernels(const Record& e) {
  std::set<std::string> ids;
  for (const auto& sel : array_field(e.data, "kernel_selection")) ids.insert(sel["kernel"].get<std::string>());
  return [ids, id = e.id](const Record& r) { return ids.count(r.id) > 0 || rule_util::contains(r.strings("/engines"), id); };
}

Keep by_engine(const Graph& g, const ListEnums&, const std::string& value, Kind kind, std::string& shown) {
  const Record& e = resolve_engine(g, value);
  shown = e.id;
  if (kind == Kind::Format) {
    auto ids = engine_formats(g, e);
    return [ids](const Record& r) { return ids.count(r.id) > 0; };
  }
  if (kind == Kind::Kernel) return engine_kernels(e);
  if (kind == Kind::Gotcha) return on_list("/applies/engines", e.id);
  return field_is("engine", e.id);  // benchmarks, matrices
}

// Formats whose verdict on the part is `path`: the verdict `qsel explain F --on GPU` gives
// and recommend's paths follow (rules/verdict.h), from the same deliberation explain runs,
// one format at a time (a deliberation over every format at once ranks and folds
// candidates across formats, and gave other verdicts). A record's native_support list
// alone once disagreed with both (bitsandbytes on sm89 is listed there and runs through a
// dequant path).
Keep by_verdict(const Graph& g, const std::string& value, const char* path, std::string& shown) {
  GpuArg gpu = resolve_gpu(g, value, false);
  shown = gpu.accelerator ? gpu.accelerator->id : value;
  if (!gpu.target) return [](const Record&) { return false; };
  std::string want = path;
  return [&g, gpu, want](const Record& f) {
    Query q;
    q.accelerator = gpu.accelerator;
    q.target = gpu.target;
    q.described_part = gpu.owned;
    return format_verdict(g, q, f).value == want;
  };
}

Keep by_native(const Graph& g, const ListEnums&, const std::string& value, Kind, std::string& shown) {
  return by_verdict(g, value, "native", shown);
}

Keep by_emulated(const Graph& g, const ListEnums&, const std::string& value, Kind, std::string& shown) {
  return by_verdict(g, value, "emulated", shown);
}

Keep by_regime(const Graph&, const ListEnums& enums, const std::string& value, Kind kind, std::string& shown) {
  require_one_of(value, enums.regimes, "regime");
  shown = value;
  if (kind == Kind::Format) return field_is("regime", value);
  return on_list(kind == Kind::Kernel ? "/regimes" : "/applies/regimes", value);
}

Keep by_severity(const Graph&, const ListEnums& enums, const std::string& value, Kind, std::string& shown) {
  require_one_of(value, enums.severities, "severity");
  shown = value;
  return field_is("severity", value);
}

Keep by_vendor(const Graph&, const ListEnums& enums, const std::string& value, Kind, std::string& shown) {
  require_one_of(value, enums.vendors, "vendor");
  shown = value;
  return field_is("vendor", value);
}

struct FilterSpec {
  ListFilterInfo info;
  MakeKeep make;
};

const std::vector<FilterSpec>& filter_specs() {
  using K = Kind;
  using F = ListFilters;
  static const std::vector<FilterSpec> specs = {
      {{"--native-on", &F::native_on, {K::Format}, "Formats that run natively on this GPU (the verdict qsel explain F --on GPU gives)"},
       by_native},
      {{"--emulated-on", &F::emulated_on, {K::Format}, "Formats that run emulated on this GPU (explain's verdict)"}, by_emulated},
      {{"--regime", &F::regime, {K::Format, K::Kernel, K::Gotcha}, "Formats, kernels or gotchas of this regime (w4a16, w4a4, w8a8, …)"},
       by_regime},
      {{"--engine", &F::engine, {K::Format, K::Kernel, K::Gotcha, K::Benchmark, K::Matrix},
        "Formats the engine serves, kernels it selects, gotchas/benchmarks/matrices that name it"},
       by_engine},
      {{"--severity", &F::severity, {K::Gotcha}, "Gotchas of this severity (blocker, major, minor)"}, by_severity},
      {{"--vendor", &F::vendor, {K::Accelerator, K::Target}, "Accelerators or targets of this vendor (nvidia, amd, …)"}, by_vendor},
  };
  return specs;
}

std::string kinds_text(const std::vector<Kind>& kinds) {
  std::vector<std::string> names;
  for (Kind k : kinds) names.push_back(kind_plural(k));
  return fmt::format("{}", fmt::join(names, ", "));
}

// Fails when a filter was given without a kind, or for a kind it cannot filter.
void check_applies(const ListFilterInfo& spec, const std::optional<Kind>& kind) {
  if (!kind)
    throw UsageError(fmt::format("{} needs a kind: qsel list {} {} …", spec.flag, kind_plural(spec.kinds.front()), spec.flag));
  if (std::find(spec.kinds.begin(), spec.kinds.end(), *kind) == spec.kinds.end())
    throw UsageError(fmt::format("{} filters {}, not {}", spec.flag, kinds_text(spec.kinds), kind_plural(*kind)));
}

ojson filtered(const Graph& g, Kind kind, const ListFilters& f, const ListEnums& enums) {
  std::vector<const Record*> records = g.of_kind(kind);
  ojson used = ojson::array();
  for (const auto& spec : filter_specs()) {
    const std::string& value = f.*spec.info.value;
    if (value.empty()) continue;
    std::string shown;
    Keep keep = spec.make(g, enums, value, kind, shown);
    std::erase_if(records, [&](const Record* r) { return !keep(*r); });
    used.push_back({{"flag", spec.info.flag}, {"value", value}, {"resolved", shown}});
  }
  ojson result = list_records(records, kind);
  if (!used.empty()) result["filters"] = used;
  return result;
}

}  // namespace

const std::vector<ListFilterInfo>& list_filters() {
  static const std::vector<ListFilterInfo> infos = [] {
    std::vector<ListFilterInfo> out;
    for (const auto& spec : filter_specs()) out.push_back(spec.info);
    return out;
  }();
  return infos;
}

ojson list_answer(const Graph& g, std::optional<Kind> kind, const ListFilters& f, const ListEnums& enums) {
  for (const auto& spec : filter_specs())
    if (!(f.*spec.info.value).empty()) check_applies(spec.info, kind);
  return kind ? filtered(g, *kind, f, enums) : list_kinds(g);
}

}  // namespace qsel
