#include "qsel/graph/custom_part.h"

#include <cmath>

#include <fmt/format.h>

#include "qsel/core/errors.h"
#include "qsel/core/text.h"

namespace qsel {
namespace {

const Record& target_of(const Graph& g, const CustomPart& spec) {
  if (spec.target.empty()) {
    std::vector<std::string> ids;
    for (const Record* t : g.of_kind(Kind::Target)) ids.push_back(t->id);
    throw UsageError(fmt::format("a custom GPU needs --target (its architecture: one of {})", fmt::join(ids, ", ")));
  }
  Resolution r = g.resolve(spec.target, Kind::Target);
  if (!r) throw_unknown("target", spec.target, r);
  return *r.record;
}

}  // namespace

Record make_custom_part(const Graph& g, const CustomPart& spec) {
  const Record& t = target_of(g, spec);
  if (!(spec.memory_gb > 0) && !(spec.memory_reported_mib > 0))
    throw UsageError("a custom GPU needs --vram (its memory in GB, as the vendor labels it: 24)");
  // Each number out of range is named in the unit it came in (a reported 1e15 MiB once read "0 GB").
  if (spec.memory_gb > 100000)
    throw UsageError(fmt::format("a custom GPU's memory is out of range: {:g} GB (at most 100000 GB)", spec.memory_gb));
  if (spec.memory_reported_mib > 1e8)
    throw UsageError(fmt::format("a custom GPU's memory is out of range: {:g} MiB as {} reports it (at most 1e+08 MiB)", spec.memory_reported_mib,
                                 spec.described_by));
  if (spec.bandwidth_gbs < 0 || spec.bandwidth_gbs > 1e6)
    throw UsageError(fmt::format("a custom GPU's bandwidth is out of range: {:g} GB/s (0 to 1e+06 GB/s)", spec.bandwidth_gbs));
  Record r;
  r.id = "custom";
  r.kind = Kind::Accelerator;
  r.name = spec.name.empty() ? "user-described GPU" : spec.name;
  r.file = "(" + spec.described_by + ")";
  double label = spec.memory_gb > 0 ? spec.memory_gb : std::round(spec.memory_reported_mib / 1024);
  r.data = {{"id", r.id},
            {"kind", "accelerator"},
            {"name", r.name},
            {"vendor", t.str("vendor")},
            {"target", t.id},
            {"memory_gb", label},
            {"memory_unit", "GiB"},
            {"user_described", true},
            {"described_by", spec.described_by},
            {"memory_note", spec.memory_reported_mib > 0
                                ? fmt::format("{:.0f} MiB as {} reports it", spec.memory_reported_mib, spec.described_by)
                                : fmt::format("{:g} GB as given ({}), read as the vendor's binary-sized label", label, spec.described_by)}};
  if (spec.memory_reported_mib > 0) r.data["memory_reported_mib"] = spec.memory_reported_mib;
  if (spec.bandwidth_gbs > 0) r.data["memory_bandwidth_gbs"] = spec.bandwidth_gbs;
  return r;
}

}  // namespace qsel
