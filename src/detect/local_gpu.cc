#include "qsel/detect/local_gpu.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include <fmt/format.h>

#include "qsel/core/errors.h"
#include "qsel/graph/gpu_names.h"

namespace qsel {
namespace {

constexpr double kIntegratedMib = 2048;  // below this, a GPU's memory is an integrated part's carve-out

double record_mib(const Record& r) {
  double reported = r.data.value("memory_reported_mib", 0.0);
  return reported > 0 ? reported : r.data.value("memory_gb", 0.0) * 1024;
}

const Record* target_record(const Graph& g, const std::string& target) {
  if (target.empty()) return nullptr;
  Resolution t = g.resolve(target, Kind::Target);
  return t ? t.record : nullptr;
}

// The record the name points at, before memory and target are checked.
const Record* named_record(const Graph& g, const ReportedGpuMatcher& m, const ReportedGpu& r) {
  if (r.target.rfind("apple-", 0) == 0 && r.memory_mib > 0) {
    std::string how;
    if (const Record* a = resolve_typed_gpu(g, fmt::format("{} {:g}gb", r.name, std::round(r.memory_mib / 1024)), &how)) return a;
  }
  return m.match(r.name, r.memory_mib);
}

bool target_agrees(const Graph& g, const ReportedGpu& r, const Record& rec) {
  const Record* t = target_record(g, r.target);
  return r.target.empty() || (t && t->id == rec.str("target"));
}

bool memory_agrees(const ReportedGpu& r, const Record& rec) {
  double mib = record_mib(rec);
  return r.memory_mib <= 0 || mib <= 0 || std::fabs(mib - r.memory_mib) <= 0.1 * r.memory_mib;
}

std::string describe(const ReportedGpu& r) {
  std::vector<std::string> facts;
  if (!r.target.empty()) facts.push_back(r.target);
  if (r.memory_mib > 0) facts.push_back(fmt::format("{:.0f} MiB", r.memory_mib));
  std::string name = r.name.empty() ? "a GPU without a name" : fmt::format("\"{}\"", r.name);
  return facts.empty() ? name : fmt::format("{} ({})", name, fmt::join(facts, ", "));
}

struct Group {
  ReportedGpu first;
  const Record* record = nullptr;
  const Record* named = nullptr;  // what the name alone points at
  int count = 0;
  double mib() const { return first.memory_mib > 0 ? first.memory_mib : record ? record_mib(*record) : 0; }
};

const Record* of_reported(const Graph& g, const ReportedGpuMatcher& m, const ReportedGpu& r) {
  const Record* rec = named_record(g, m, r);
  if (!rec || !target_agrees(g, r, *rec) || !memory_agrees(r, *rec)) return nullptr;
  return rec;
}

// Identical GPUs are one group. Each distinct report is matched once, against spellings
// compacted once: 4,096 GPUs took 7 s when every one re-spelled the corpus.
std::vector<Group> group(const Graph& g, const Probe& probe) {
  ReportedGpuMatcher matcher(g);
  std::map<std::tuple<std::string, double, std::string>, std::size_t> seen;  // a report -> its group
  std::vector<Group> out;
  for (const auto& r : probe.gpus) {
    auto key = std::make_tuple(r.name, r.memory_mib, r.target);
    if (auto it = seen.find(key); it != seen.end()) {
      ++out[it->second].count;
      continue;
    }
    const Record* rec = of_reported(g, matcher, r);
    auto same = std::find_if(out.begin(), out.end(), [&](const Group& x) {
      return rec ? x.record == rec : !x.record && x.first.name == r.name && std::fabs(x.first.memory_mib - r.memory_mib) < 1;
    });
    if (same != out.end()) {
      ++same->count;
      seen.emplace(key, static_cast<std::size_t>(same - out.begin()));
      continue;
    }
    seen.emplace(key, out.size());
    out.push_back({r, rec, rec ? rec : named_record(g, matcher, r), 1});
  }
  return out;
}

// A reported GPU no record fits: its own figures on its target (the driver's,
// or the target of the record its name points at).
CustomPart custom_of(const Graph& g, const Group& x) {
  const ReportedGpu& r = x.first;
  const Record* t = target_record(g, r.target);
  if (!t && x.named) t = target_record(g, x.named->str("target"));
  std::vector<std::string> same_target;
  std::string where = t ? t->id : r.target;
  if (!where.empty())
    for (const Record* a : g.of_kind(Kind::Accelerator))
      if (a->str("target") == where) same_target.push_back(a->id);
  std::string parts = same_target.empty() ? "" : fmt::format(" (parts on {}: {})", where, fmt::join(same_target, ", "));
  if (!t) {
    auto alike = parts_sharing_a_word(g, r.name);
    throw UsageError(fmt::format("--gpu auto: {} reports {}, which no record describes{}; name the part with --gpu{}, or "
                                 "describe it with --gpu custom --vram GiB --target TARGET",
                                 r.tool, describe(r), r.target.empty() ? "" : fmt::format(" and whose target {} has no record", r.target),
                                 alike.empty() ? "" : fmt::format(" ({})", fmt::join(alike, ", "))));
  }
  if (r.memory_mib <= 0)
    throw UsageError(fmt::format("--gpu auto: {} reports {} without its memory; name the part with --gpu{}, or give --vram GiB",
                                 r.tool, describe(r), parts));
  CustomPart c;
  c.name = r.name;
  c.memory_reported_mib = r.memory_mib;
  c.target = t->id;
  c.described_by = r.tool;
  return c;
}

}  // namespace

const Record* record_of_reported(const Graph& g, const ReportedGpu& r) { return of_reported(g, ReportedGpuMatcher(g), r); }

LocalGpu choose_local_gpu(const Graph& g, const Probe& probe) {
  if (probe.gpus.empty())
    throw UsageError(fmt::format("--gpu auto found no GPU ({}); name the part with --gpu NAME, or describe it with --gpu "
                                 "custom --vram GiB --target TARGET",
                                 fmt::join(probe.tried, "; ")));
  auto groups = group(g, probe);
  std::vector<std::string> set_aside;
  bool discrete = std::any_of(groups.begin(), groups.end(), [](const Group& x) { return x.mib() >= kIntegratedMib; });
  if (discrete)
    std::erase_if(groups, [&](const Group& x) {
      bool small = x.mib() > 0 && x.mib() < kIntegratedMib;
      if (small) set_aside.push_back(fmt::format("{} (an integrated GPU's carve-out)", describe(x.first)));
      return small;
    });
  auto best = std::max_element(groups.begin(), groups.end(),
                               [](const Group& a, const Group& b) { return a.count * a.mib() < b.count * b.mib(); });
  LocalGpu out;
  out.count = best->count;
  out.record = best->record;
  if (!out.record) out.custom = custom_of(g, *best);
  std::string what = fmt::format("{}{}", best->count > 1 ? fmt::format("{} x ", best->count) : "", describe(best->first));
  std::string as = out.record ? out.record->id
                              : fmt::format("a part described from its driver (no record fits{})",
                                            best->named ? fmt::format("; the name suggests {}, whose memory or target differ", best->named->id) : "");
  out.note = fmt::format("detected by {}: {} → {}", best->first.tool, what, as);
  if (out.record && best->first.memory_mib <= 0 && !out.record->str("family").empty())
    out.note += fmt::format(" (memory not reported: the {} family's default member; name another with --gpu)", out.record->str("family"));
  for (const auto& x : groups)
    if (&x != &*best) out.note += fmt::format("; also found {}{} (name it with --gpu to use it)", x.count > 1 ? fmt::format("{} x ", x.count) : "", describe(x.first));
  for (const auto& s : set_aside) out.note += "; set aside " + s;
  return out;
}

}  // namespace qsel
