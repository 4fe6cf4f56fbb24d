#include "qsel/sizing/gguf_bpw.h"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "qsel/core/json_number.h"
#include "qsel/sizing/memory.h"

namespace qsel {
using nlohmann::json;
namespace {

struct Entry {
  double value = 0;
  bool transferable = true;
};

// Every measured GGUF figure in the corpus, by type and model; built once per graph.
struct Table {
  std::map<std::string, double> structs;                              // type -> block-struct bpw
  std::map<std::string, std::map<std::string, Entry>> by_type;        // type -> model -> figure
  std::map<std::string, int> coverage, transferable_coverage;         // model -> types measured on it
  std::map<std::string, double> params;                               // model -> params_b
  int measured_types = 0;
};

bool sized_alike(const Record& f) {  // an experts-only mixture (MXFP4_MOE) is sized by its own rule
  return f.str("scheme") == "gguf" && f.data.value("post_training", true) &&
         !(f.data.contains("mixture") && f.data["mixture"].value("base_tensors", "all") == "experts");
}

std::shared_ptr<const Table> build(const Graph& g) {
  auto t = std::make_shared<Table>();
  for (const Record* f : g.of_kind(Kind::Format)) {
    if (f->str("scheme") != "gguf") continue;
    const auto& bpw = object_field(f->data, "bpw");
    t->structs[f->id] = bpw.value("struct", 0.0);
    for (const auto& e : array_field(bpw, "measured")) {
      std::string on = e.value("model", "");
      if (on.empty() || !e.value("value", json()).is_number()) continue;
      bool transfer = e.value("transferable", true);
      t->by_type[f->id][on] = {e["value"].get<double>(), transfer};
      if (!sized_alike(*f)) continue;
      ++t->coverage[on];
      if (transfer) ++t->transferable_coverage[on];
    }
    if (sized_alike(*f) && t->by_type.count(f->id)) ++t->measured_types;
  }
  for (const Record* r : g.of_kind(Kind::Model)) t->params[r->id] = r->data.value("params_b", 0.0);
  return t;
}

double distance(const Table& t, const std::string& on, double params_b) {
  auto it = t.params.find(on);
  if (it == t.params.end() || it->second <= 0 || params_b <= 0) return 1e200;
  return std::fabs(std::log(it->second / params_b));
}

// The model every type is read on for this one: itself where a quarter of the measured types were measured on it,
// else the nearest in size with a quarter of them measured and free to transfer.
std::string reference(const Table& t, const ModelSpec& m) {
  int quarter = (t.measured_types + 3) / 4;  // a quarter: the K-quant tables of older READMEs (llama-2-7b) count
  if (auto it = t.coverage.find(m.id); it != t.coverage.end() && it->second >= quarter) return m.id;
  std::string best;
  double best_d = 1e300;
  for (const auto& [on, n] : t.transferable_coverage)
    if (double d = distance(t, on, m.params_b); n >= quarter && d < best_d) best = on, best_d = d;
  return best_d < 1e200 ? best : "";
}

const Entry* entry(const Table& t, const std::string& type, const std::string& on, const ModelSpec& m) {
  auto ty = t.by_type.find(type);
  if (ty == t.by_type.end()) return nullptr;
  auto it = ty->second.find(on);
  if (it == ty->second.end() || (!it->second.transferable && on != m.id)) return nullptr;
  return &it->second;
}

// The excess over the block struct carried from `from` to `to` by the median ratio over the other types
// measured on both (an excess of a few hundredths on `from` is noise, not a share, and is not used).
std::optional<double> excess_ratio(const Table& t, const std::string& type, const std::string& from, const std::string& to,
                                   const ModelSpec& m, int* used) {
  std::vector<double> ratios;
  for (const auto& [u, models] : t.by_type) {
    (void)models;
    double us = t.structs.at(u);
    const Entry* a = entry(t, u, from, m);
    const Entry* b = entry(t, u, to, m);
    if (u == type || us <= 0 || !a || !b || a->value - us < 0.05) continue;
    ratios.push_back(std::max(0.0, b->value - us) / (a->value - us));
  }
  if (ratios.size() < 2) return std::nullopt;
  std::nth_element(ratios.begin(), ratios.begin() + ratios.size() / 2, ratios.end());
  *used = static_cast<int>(ratios.size());
  return ratios[ratios.size() / 2];
}

}  // namespace

std::optional<Bpw> measured_gguf_bpw(const Record& f, const ModelSpec& m, const Graph* g) {
  const auto& list = array_field(object_field(f.data, "bpw"), "measured");
  if (list.empty()) return std::nullopt;
  if (!g) {  // no corpus to compare with: the model's own figure, else the first that transfers
    for (const auto& e : list)
      if (e.value("model", "") == m.id) return Bpw{e["value"].get<double>(), "measured on " + m.id, true};
    for (const auto& e : list)
      if (e.value("transferable", true)) return Bpw{e["value"].get<double>(), "measured on " + e.value("model", ""), true};
    return std::nullopt;
  }
  auto t = g->memo<Table>("gguf-measured-bpw", [&] { return build(*g); });
  if (const Entry* own = entry(*t, f.id, m.id, m)) return Bpw{own->value, "measured on " + m.id, true};
  std::string ref = sized_alike(f) ? reference(*t, m) : "";
  if (!ref.empty())
    if (const Entry* e = entry(*t, f.id, ref, m)) return Bpw{e->value, "measured on " + ref, true};
  // The nearest model in size this type was measured on.
  std::string from;
  double best = 1e300;
  auto ty = t->by_type.find(f.id);
  if (ty == t->by_type.end()) return std::nullopt;
  for (const auto& [on, e] : ty->second) {
    if (!e.transferable) continue;
    double d = distance(*t, on, m.params_b);
    if (from.empty() || d < best) from = on, best = d;
  }
  if (from.empty()) return std::nullopt;
  double v = ty->second.at(from).value, s = t->structs.at(f.id);
  int used = 0;
  if (!ref.empty() && s > 0 && v > s)
    if (auto r = excess_ratio(*t, f.id, from, ref, m, &used))
      return Bpw{s + (v - s) * *r,
                 fmt::format("measured on {} ({:.4g}), its excess over the block struct carried to {} by {} types measured "
                             "on both (median ratio {:.2f})", from, v, ref, used, *r),
                 true};
  return Bpw{v, "measured on " + from, true};
}

}  // namespace qsel
