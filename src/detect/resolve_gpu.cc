#include "qsel/detect/resolve_gpu.h"

#include <algorithm>

#include <fmt/format.h>

#include "qsel/core/errors.h"
#include "qsel/core/text.h"
#include "qsel/detect/local_gpu.h"
#include "qsel/graph/custom_part.h"
#include "qsel/graph/gpu_names.h"

namespace qsel {
namespace {

std::string family_note(const std::string& query, const Resolution& r) {
  std::vector<std::string> others;
  for (const Record* o : r.others) others.push_back(o->id);
  return fmt::format("\"{}\" → {}, the family default; also {}", query, r.record->id, fmt::join(others, ", "));
}

// Other members of the part's family with the same memory: "a100 40gb" names the
// SXM4 card, and the PCIe card has 40 GB too.
std::string same_memory_siblings(const Graph& g, const Record& part) {
  std::string family = part.str("family");
  double mem = part.data.value("memory_gb", 0.0);
  std::vector<std::string> ids;
  if (family.empty()) return "";
  for (const Record* a : g.of_kind(Kind::Accelerator))
    if (a != &part && a->str("family") == family && a->data.value("memory_gb", -1.0) == mem) ids.push_back(a->id);
  return ids.empty() ? "" : fmt::format(" (also {:g} GB: {})", mem, fmt::join(ids, ", "));
}

std::string note_of(const Graph& g, const std::string& query, const Resolution& r) {
  if (r.how == Resolution::How::Family) return family_note(query, r);
  if (r.how == Resolution::How::Alias)
    return fmt::format("\"{}\" is an alias of {}{}", query, r.record->id,
                       r.record->kind == Kind::Accelerator ? same_memory_siblings(g, *r.record) : "");
  return "";
}

// A package the engines see as several GPUs (MI250X: two GCDs) answers as one of them:
// its share of memory, bandwidth and compute, and `devices` GPUs per package.
std::shared_ptr<const Record> one_device(const Record& part, int devices) {
  auto r = std::make_shared<Record>(part);
  nlohmann::json& d = r->data;
  for (const char* key : {"memory_gb", "memory_bandwidth_gbs"})
    if (d.contains(key) && d[key].is_number()) d[key] = d[key].get<double>() / devices;
  if (d.contains("tflops") && d["tflops"].is_object())
    for (auto& [k, v] : d["tflops"].items())
      if (v.is_number()) v = v.get<double>() / devices;
  r->name = fmt::format("{} (one of its {} GCDs)", part.name, devices);
  d["name"] = r->name;
  return r;
}

GpuArg of_part(const Graph& g, const Record* part, std::string note) {
  GpuArg arg;
  arg.accelerator = part;
  arg.target = g.find(part->str("target"));
  if (arg.target && arg.target->kind != Kind::Target) arg.target = nullptr;
  arg.note = std::move(note);
  int devices = part->data.value("devices", 1);
  if (devices > 1) {
    arg.owned = one_device(*part, devices);
    arg.accelerator = arg.owned.get();
    arg.devices = devices;
    std::string prefix = arg.note.empty() ? "" : arg.note + "; ";
    arg.note = fmt::format("{}{} is {} GPUs to the engines ({:g} GB each): every figure is per GPU, and --count counts packages",
                           prefix, part->id, devices, part->data.value("memory_gb", 0.0) / devices);
  }
  return arg;
}

GpuArg of_custom(const Graph& g, const CustomPart& c, std::string note) {
  auto rec = std::make_shared<const Record>(make_custom_part(g, c));
  GpuArg arg = of_part(g, rec.get(), std::move(note));
  arg.owned = std::move(rec);
  return arg;
}

std::string spec_words(const GpuSpec& s) {
  std::vector<std::string> w;
  if (s.vram_gb > 0) w.push_back(fmt::format("{:g} GiB (--vram)", s.vram_gb));
  if (s.bandwidth_gbs > 0) w.push_back(fmt::format("{:g} GB/s (--bandwidth)", s.bandwidth_gbs));
  if (!s.target.empty()) w.push_back(fmt::format("{} (--target)", s.target));
  return fmt::format("{}", fmt::join(w, ", "));
}

// A known part with the user's figures in place of the record's (a 48 GB 4090):
// the record's target and bandwidth unless given.
GpuArg override_part(const Graph& g, const Record& base, const std::string& query, const GpuSpec& s) {
  CustomPart c;
  c.name = fmt::format("{} as described", base.name);
  c.memory_gb = s.vram_gb > 0 ? s.vram_gb : base.data.value("memory_gb", 0.0);
  if (s.vram_gb <= 0) c.memory_reported_mib = base.data.value("memory_reported_mib", 0.0);
  c.bandwidth_gbs = s.bandwidth_gbs > 0 ? s.bandwidth_gbs : base.data.value("memory_bandwidth_gbs", 0.0);
  c.target = s.target.empty() ? base.str("target") : s.target;
  c.described_by = "--gpu " + base.id + " with " + spec_words(s);
  return of_custom(g, c, fmt::format("user-described: \"{}\" is {}, with {}; no record checks these figures", query, base.id, spec_words(s)));
}

GpuArg described_part(const Graph& g, const std::string& query, const GpuSpec& s) {
  CustomPart c;
  c.name = query == "custom" ? "" : query;
  c.memory_gb = s.vram_gb;
  c.bandwidth_gbs = s.bandwidth_gbs;
  c.target = s.target;
  c.described_by = spec_words(s);
  GpuArg arg = of_custom(g, c, "");
  arg.note = fmt::format("user-described part: {}; every rule runs on {}'s facts, and no record checks these figures",
                         c.described_by, arg.target->id);
  return arg;
}

GpuArg detected(const Graph& g, const std::string& probe_path) {
  Probe p = probe_gpus(probe_path);
  LocalGpu local = choose_local_gpu(g, p);
  GpuArg arg = local.record ? of_part(g, local.record, local.note) : of_custom(g, *local.custom, local.note);
  arg.count = local.count;
  arg.host_ram = p.ram;
  return arg;
}

// "unknown GPU "x"; did you mean "y"? Parts with that model number: …. Or describe it: …"
// A near-miss that does not share the model number is no hint ("3090 super" is not a 2080 Super).
[[noreturn]] void unknown_gpu(const Graph& g, const std::string& query, const Resolution& r, bool describable) {
  auto same = parts_sharing_model_number(g, query);
  std::vector<std::string> near;
  for (const auto& id : r.suggestions)
    if (same.empty() || std::find(same.begin(), same.end(), id) != same.end()) near.push_back(id);
  std::string out = fmt::format("unknown GPU {}", quote_value(query));
  out += near.empty() ? "." : fmt::format("; did you mean \"{}\"?", fmt::join(near, "\", \""));
  auto alike = same.empty() ? parts_sharing_a_word(g, query) : std::vector<std::string>{};
  if (!same.empty() && same != near) out += fmt::format(" Parts with that model number: {}.", fmt::join(same, ", "));
  else if (!alike.empty() && alike.size() <= 12) out += fmt::format(" Parts with a word in common: {}.", fmt::join(alike, ", "));
  GpuName n = split_gpu_name(query);
  if (describable && n.memory_gb > 0 && !same.empty())
    out += fmt::format(" A {:g} GB card no record has: --gpu {} --vram {:g}.", n.memory_gb, same.front(), n.memory_gb);
  if (describable) out += " Or describe it: --gpu custom --vram GiB --target TARGET [--bandwidth GB/s]";
  throw UsageError(out);
}

}  // namespace

GpuArg resolve_gpu(const Graph& g, const std::string& query, bool allow_target, const GpuSpec& spec, const std::string& probe_path) {
  if (query == "auto") {
    if (spec.any()) throw UsageError("--gpu auto reads the part from this machine; --vram, --bandwidth and --target describe a part by hand");
    return detected(g, probe_path);
  }
  if (query == "custom" && !spec.describable) throw UsageError("a custom GPU is for recommend (--gpu custom --vram GiB --target TARGET)");
  if (query == "custom") return described_part(g, query, spec);
  Resolution part = g.resolve(query, Kind::Accelerator);
  std::string how;
  const Record* typed = part ? part.record : resolve_typed_gpu(g, query, &how);
  if (typed && spec.any()) return override_part(g, *typed, query, spec);
  if (part) return of_part(g, part.record, note_of(g, query, part));
  if (typed) return of_part(g, typed, how);
  if (spec.any()) return described_part(g, query, spec);
  Resolution target = g.resolve(query, Kind::Target);
  if (target && allow_target) {
    GpuArg arg;
    arg.target = target.record;
    arg.note = note_of(g, query, target);
    return arg;
  }
  if (target) {
    std::vector<std::string> parts;
    for (const Record* a : g.of_kind(Kind::Accelerator))
      if (a->str("target") == target.record->id) parts.push_back(a->id);
    throw UsageError(fmt::format("{} is a target, not a GPU; name a part{}", quote_value(query),
                                 parts.empty() ? "" : fmt::format(" ({})", fmt::join(parts, ", "))));
  }
  unknown_gpu(g, query, part, spec.describable);
}

}  // namespace qsel
