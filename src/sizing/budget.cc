// What a device gives an engine. Capacity is read the way the vendor means it
// (HBM/GDDR/unified "80 GB" is 80 GiB), the engine sizes from the driver's total
// (or, on Apple, the Metal working set), and each engine's own budget rule and
// overheads come from its record: vLLM's gpu_memory_utilization with its
// profiling peak, SGLang's derived mem_fraction_static, TensorRT-LLM's fraction
// of free memory, llama.cpp's compute buffer. Units out: GB = 1e9 bytes.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "qsel/core/text.h"
#include "qsel/core/units.h"
#include "qsel/sizing/memory.h"
#include "qsel/core/json_number.h"

namespace qsel {
using nlohmann::json;
namespace {

// Where a unified-memory part's recorded budget figure comes from: its
// gpu_budget_evidence entry for `field` (basis, OS, grade, the source's address).
std::string evidence_of(const Record& a, std::string_view field) {
  for (const auto& e : array_field(a.data, "gpu_budget_evidence")) {
    if (!e.is_object() || e.value("field", "") != field) continue;
    std::string basis = e.value("basis", "");
    std::string from = basis == "this-part"          ? "a published log of this part"
                       : basis == "same-memory-size" ? "a published log of a part with the same memory"
                                                     : "derived from published figures";
    std::string os = e.value("os", "");
    json src = object_field(e, "source");
    std::string where = src.value("url", src.value("title", ""));
    return fmt::format("{}{}, {}{}", from, os.empty() ? "" : " under " + os, e.value("grade", "ungraded"), where.empty() ? "" : ": " + where);
  }
  return "";
}

// The Metal working set: the part's recorded figure, or the target's rule by memory size.
double working_set_gb(const Record& a, const Record& t, double capacity, std::string* source) {
  double recorded = number_or(a.data, "gpu_working_set_mib");
  if (recorded > 0) {
    std::string from = evidence_of(a, "gpu_working_set_mib");
    *source = from.empty() ? fmt::format("Metal working set {:.0f} MiB (recommendedMaxWorkingSetSize, recorded for {})", recorded, a.id)
                           : fmt::format("Metal working set {:.0f} MiB (recommendedMaxWorkingSetSize from {})", recorded, from);
    return recorded * kBytesPerMiB / kBytesPerGB;
  }
  double capacity_gib = capacity * kBytesPerGB / kBytesPerGiB;
  for (const auto& rule : array_field(t.data, "gpu_working_set")) {
    double max = number_or(rule, "max_memory_gib", 1e18);
    if (capacity_gib > max) continue;
    double f = number_or(rule, "fraction");
    std::string os = rule.value("os", "");
    *source = fmt::format("Metal working set ~{:.0f}% of {:g} GiB unified memory ({}'s rule, {} from published logs{}; "
                          "recommendedMaxWorkingSetSize not recorded for {})",
                          f * 100, capacity_gib, t.id, rule.value("grade", "ungraded"), os.empty() ? "" : " under " + os, a.id);
    return capacity * f;
  }
  *source = fmt::format("{:g} GiB unified memory (no working-set rule recorded for {}: the GPU may get less)", capacity_gib, t.id);
  return capacity;
}

double from_rules(const json& rules, const char* key, double x) {
  for (const auto& r : rules)
    if (x <= number_or(r, key, 1e18)) return number_or(r, "value");
  return 0;
}

// SGLang's mem_fraction_static: the engine derives it from the device size.
double static_fraction(const json& sf, double total_gb, int count, std::string* how) {
  double total_mib = total_gb * kBytesPerGB / kBytesPerMiB;
  json bucket;  // a copy: value() hands back a temporary
  for (const auto& b : array_field(sf, "buckets"))
    if (bucket.is_null() && total_mib <= number_or(b, "max_gib", 1e18) * 1024) bucket = b;
  if (bucket.is_null()) return 0;
  double chunk = number_or(bucket, "chunked_prefill"), bs = number_or(bucket, count >= 4 ? "cuda_graph_max_bs_tp4" : "cuda_graph_max_bs");
  if (bs <= 0) bs = number_or(bucket, "cuda_graph_max_bs");
  double reserved = number_or(sf, "base_mib") + number_or(sf, "per_chunk_token_mib") * std::max(chunk, number_or(sf, "floor_tokens")) +
                    number_or(sf, "per_graph_bs_mib") * bs + number_or(sf, "per_tp_mib") * count;
  if (total_mib > number_or(sf, "floor_above_gib", 1e18) * 1024) reserved = std::max(reserved, number_or(sf, "floor_gib") * 1024);
  *how = fmt::format("derived from the device size: {:.0f} MiB reserved (chunked prefill {:g}, CUDA-graph batch {:g})", reserved,
                     chunk, bs);
  double fraction = std::round((total_mib - reserved) / total_mib * 1000) / 1000;
  if (fraction <= 0) {  // the reserve (it grows with the TP size) passes the device: nothing is left, never a negative budget
    *how = fmt::format("derived from the device size: {:.0f} MiB reserved of {:.0f} MiB at TP {}, which leaves nothing for weights and KV "
                       "(SGLang would derive {:g} and fail to start; set --mem-fraction-static)", reserved, total_mib, count, fraction);
    return 0;
  }
  return fraction;
}

double activation_gb(const json& ap, const Record& a, double total_gb, const ModelSpec& m, std::string* how) {
  double total_gib = total_gb * kBytesPerGB / kBytesPerGiB, seqs = 0;
  for (const auto& rule : array_field(ap, "max_num_seqs")) {
    if (total_gib < number_or(rule, "min_device_gib")) continue;
    std::string unless = rule.value("unless_name_contains", "");
    if (!unless.empty() && to_lower(a.name).find(to_lower(unless)) != std::string::npos) continue;
    seqs = number_or(rule, "value");
    break;
  }
  double bytes = number_or(ap, "bytes_per_seq_vocab") * seqs * static_cast<double>(m.vocab);
  *how = fmt::format("activation peak {:.1f} GB ({:g} sequences x {} vocab)", bytes / kBytesPerGB, seqs, m.vocab);
  return bytes / kBytesPerGB;
}

// A unified part whose CUDA reports what the OS has free (Jetson), with no figure of its own: the share free at
// boot on its target's parts with published logs, by memory size (the target's gpu_free_share).
double free_share(const Record& a, const Record& t, double capacity, std::string* source) {
  double capacity_gib = capacity * kBytesPerGB / kBytesPerGiB;
  for (const auto& rule : array_field(t.data, "gpu_free_share")) {
    if (capacity_gib > number_or(rule, "max_memory_gib", 1e18)) continue;
    double f = number_or(rule, "fraction");
    if (f <= 0) return 0;
    std::string os = rule.value("os", "");
    *source = fmt::format("~{:.0f}% of {:g} GiB unified memory ({}'s free-share rule, {} from published logs of its parts{}; "
                          "no figure recorded for {}: --vram-free to override)",
                          f * 100, capacity_gib, t.id, rule.value("grade", "ungraded"), os.empty() ? "" : " under " + os, a.id);
    return capacity * f;
  }
  return 0;
}

std::string gb(double v) { return fmt::format("{:.1f} GB", v); }

bool unified(const Record& a) { return to_lower(a.str("memory_type")).find("unified") != std::string::npos; }

}  // namespace

double capacity_gb(const Record& a) {
  double v = number_or(a.data, "memory_gb");
  if (v <= 0) return 0;
  return a.str("memory_unit") == "GB" ? v : v * kBytesPerGiB / kBytesPerGB;  // DRAM/HBM/GDDR capacities are binary-sized
}

double device_total_gb(const Record& a, const Record& t, std::string* source, bool* is_free) {
  if (is_free) *is_free = false;
  double cap = capacity_gb(a);
  std::string unit = a.str("memory_unit").empty() ? "GiB" : a.str("memory_unit");
  if (double free = number_or(a.data, "gpu_free_gb"); free > 0 && a.data.value("gpu_free_given", false)) {
    *source = fmt::format("{:.1f} GB free ({}; the card's nominal {:g} {} less what the system holds)", free, a.str("gpu_free_note"),
                          number_or(a.data, "memory_gb"), unit);
    if (is_free) *is_free = true;
    return free;
  }
  if (t.str("platform") == "metal" && cap > 0) return working_set_gb(a, t, cap, source);
  if (double free = number_or(a.data, "gpu_free_gb"); free > 0 && !a.data.value("user_described", false)) {
    std::string from = evidence_of(a, "gpu_free_gb");
    *source = fmt::format("{:.1f} GB free at boot of the {:g} {} (gpu_free_gb: {}{}; --vram to override)", free, number_or(a.data, "memory_gb"),
                          unit, a.str("gpu_free_note").substr(0, a.str("gpu_free_note").find(':')), from.empty() ? "" : "; " + from);
    if (is_free) *is_free = true;
    return free;
  }
  if (double visible = number_or(a.data, "gpu_visible_gb"); visible > 0 && !a.data.value("user_described", false)) {
    std::string from = evidence_of(a, "gpu_visible_gb");
    *source = fmt::format("{:.1f} GB of the {:g} {} the GPU may use (gpu_visible_gb: {}{}; --vram to override)", visible,
                          number_or(a.data, "memory_gb"), unit, a.str("gpu_visible_note").substr(0, a.str("gpu_visible_note").find(':')),
                          from.empty() ? "" : "; " + from);
    return visible;
  }
  if (cap > 0 && unified(a) && !a.data.value("user_described", false))
    if (double share = free_share(a, t, cap, source); share > 0) {
      if (is_free) *is_free = true;
      return share;
    }
  double reported = number_or(a.data, "memory_reported_mib");
  if (reported > 0) {
    *source = fmt::format("{:.0f} MiB as the driver reports it", reported);
    return reported * kBytesPerMiB / kBytesPerGB;
  }
  if (a.data.value("user_described", false))
    *source = fmt::format("{:g} {} as given; the driver's total is unknown and may be a little less", number_or(a.data, "memory_gb"), unit);
  else if (cap > 0 && unified(a))
    *source = fmt::format("the whole {:g} {} of unified memory (no published budget for {}: the OS and its carveouts take a share "
                          "the label does not show)", number_or(a.data, "memory_gb"), unit, a.id);
  else
    *source = cap > 0 ? fmt::format("the vendor's {:g} {} (the driver's total is not recorded)", number_or(a.data, "memory_gb"), unit)
                      : "memory not recorded";
  return cap;
}

namespace {

// How to give the GPU more of a unified memory (the target's gpu_limit_raise), and,
// where no budget is recorded at all, how to give qsel the real figure.
std::string raise_hint(const Record& a, const Record& t, bool cite = true) {
  if (!unified(a) || a.data.value("user_described", false) || a.data.value("gpu_free_given", false)) return "";
  std::string hint;
  const json raise = object_field(t.data, "gpu_limit_raise");
  if (raise.is_object() && raise.contains("command")) {
    json src = object_field(raise, "source");
    std::string where = src.value("url", src.value("title", ""));
    hint = fmt::format("to give the GPU more: `{}`{}", raise.value("command", ""), where.empty() || !cite ? "" : " (" + where + ")");
  }
  bool budgeted = number_or(a.data, "gpu_working_set_mib") > 0 || number_or(a.data, "gpu_free_gb") > 0 ||
                  number_or(a.data, "gpu_visible_gb") > 0 || (t.str("platform") == "metal" && t.data.contains("gpu_working_set"));
  if (!budgeted) hint += std::string(hint.empty() ? "" : "; ") + "give --vram-free GiB with what the OS reports on this machine";
  return hint;
}

}  // namespace

Budget engine_budget(const Record& a, const Record& t, int count, const Record* engine, const ModelSpec& m, double weights,
                     double fraction_override) {
  Budget b;
  b.capacity_gb = capacity_gb(a);
  bool free_figure = false;
  b.total_gb = device_total_gb(a, t, &b.total_source, &free_figure);
  const json mem = engine ? object_field(engine->data, "memory") : json::object();
  b.kind = mem.value("budget", std::string(mem.contains("gpu_memory_utilization") ? "fraction-of-total" : "whole-device"));
  std::vector<std::string> kept;
  double n = count;
  if (b.kind == "fraction-of-total" || b.kind == "fraction-of-free") {
    b.fraction = number_or(mem, "fraction", number_or(mem, "gpu_memory_utilization", 1));
    b.fraction_source = fmt::format("{} {:g}", mem.value("fraction_flag", std::string("fraction")), b.fraction);
  } else if (b.kind == "static-fraction") {
    b.fraction = static_fraction(object_field(mem, "static_fraction"), b.total_gb, count, &b.fraction_source);
    b.fraction_source = fmt::format("{} {:g}, {}", mem.value("fraction_flag", std::string("fraction")), b.fraction, b.fraction_source);
  }
  if (fraction_override > 0 && b.kind != "whole-device") {
    b.fraction = fraction_override;
    b.fraction_source = fmt::format("{:g} from --memory-fraction", fraction_override);
  }
  // A fraction of the device's whole memory must be free when the engine starts (vLLM's worker refuses: "Free memory on
  // device ... on startup is less than desired GPU memory utilization"). Where the GPU's figure is what is free (a Jetson
  // at boot, --vram-free), the engine's own fraction is lowered to what that allows, and the command carries it.
  if (b.kind == "fraction-of-total" && fraction_override <= 0 && free_figure && b.capacity_gb > 0 && b.total_gb < b.capacity_gb) {
    double cap = std::floor(b.total_gb / b.capacity_gb * 100) / 100 - 0.01;
    if (cap > 0 && b.fraction > cap) {
      b.fraction_source = fmt::format("{} {:g}: the engine asks for its fraction of the device's whole {} and refuses to start when "
                                      "less is free; {} free allows {:g}", mem.value("fraction_flag", std::string("fraction")), cap,
                                      gb(b.capacity_gb), gb(b.total_gb), cap);
      b.fraction = cap;
      b.fraction_of_capacity = true;
    }
  }
  if (mem.contains("activation_peak")) {
    std::string how;
    b.activation_gb = activation_gb(mem["activation_peak"], a, b.total_gb, m, &how);
    kept.push_back(how);
  }
  if (mem.contains("non_torch_gib")) {
    b.non_torch_gb = from_rules(mem["non_torch_gib"], "max_count", count) * kBytesPerGiB / kBytesPerGB;
    kept.push_back(fmt::format("non-torch {:.2f} GB", b.non_torch_gb));
  }
  if (mem.contains("cuda_graphs_gib") && t.str("platform") == "cuda") {
    b.cuda_graphs_gb = number_or(mem, "cuda_graphs_gib") * kBytesPerGiB / kBytesPerGB;
    kept.push_back(fmt::format("CUDA graphs {:.1f} GB", b.cuda_graphs_gb));
  }
  if (mem.contains("fixed_overhead_gib")) {
    b.buffers_gb += number_or(mem, "fixed_overhead_gib") * kBytesPerGiB / kBytesPerGB;
    kept.push_back(fmt::format("activations and buffers {:.1f} GB", number_or(mem, "fixed_overhead_gib") * kBytesPerGiB / kBytesPerGB));
  }
  if (mem.contains("compute_buffer")) {
    const json& cb = mem["compute_buffer"];
    double bytes = number_or(cb, "tokens") * number_or(cb, "bytes_per_entry") * static_cast<double>(m.vocab);
    b.buffers_gb += bytes / kBytesPerGB;
    kept.push_back(fmt::format("compute buffer {:.2f} GB ({:g} tokens x {} vocab)", bytes / kBytesPerGB, number_or(cb, "tokens"), m.vocab));
  }
  double overhead = b.activation_gb + b.non_torch_gb + b.cuda_graphs_gb + b.buffers_gb;
  std::string budget;
  if (b.kind == "fraction-of-total") {
    double base = b.fraction_of_capacity ? b.capacity_gb : b.total_gb;
    b.for_model_gb = n * (b.fraction * base - overhead);
    budget = fmt::format("{} x {} = {} per GPU", gb(base), b.fraction, gb(b.fraction * base));
  } else if (b.kind == "fraction-of-free") {
    double free = n * (b.total_gb - overhead) - weights;
    b.for_model_gb = weights + b.fraction * std::max(0.0, free);
    budget = fmt::format("KV pool = {} x what is free after weights and overheads", b.fraction);
  } else if (b.kind == "static-fraction") {
    b.for_model_gb = n * b.fraction * b.total_gb;
    budget = fmt::format("weights + KV pool = {} x {} = {} per GPU", b.fraction, gb(b.total_gb), gb(b.fraction * b.total_gb));
    kept.insert(kept.begin(), fmt::format("the other {:.0f}% for activations and CUDA graphs", (1 - b.fraction) * 100));
  } else {
    b.for_model_gb = n * (b.total_gb - overhead);
    budget = fmt::format("the whole {} per part", gb(b.total_gb));
  }
  b.for_model_gb = std::max(0.0, b.for_model_gb);  // overheads past the device leave nothing, never a negative budget
  std::string who = engine ? engine->id : "no engine";
  std::string hint = raise_hint(a, t);
  if (unified(a) && b.capacity_gb > 0 && b.total_gb < 0.98 * b.capacity_gb) {
    std::string uncited = raise_hint(a, t, false);  // the hint's source is in the statement (-v)
    b.cap_note = fmt::format("the GPU may use {} of the part's {}: {}{}", gb(b.total_gb), gb(b.capacity_gb), b.total_source,
                             uncited.empty() ? "" : "; " + uncited);
  }
  b.statement = fmt::format("{} per part ({}); {}: {}{}{}{}{}", gb(b.total_gb), b.total_source, who, budget,
                            b.fraction_source.empty() || b.kind == "whole-device" ? "" : " (" + b.fraction_source + ")",
                            kept.empty() ? "" : fmt::format("; keeps {}", fmt::join(kept, ", ")),
                            fmt::format(" → {} for weights and KV{}", gb(b.for_model_gb), count > 1 ? fmt::format(" on {} parts", count) : ""),
                            hint.empty() ? "" : "; " + hint);
  return b;
}

}  // namespace qsel
