// Partial offload plans (docs/placement.md). Sizes per layer come from the
// model's shape and the format's sized bits per weight: the input embeddings stay
// in RAM (llama.cpp keeps token_embd on the CPU), the output head goes with the
// GPU only when every layer does, and each layer's KV cache lives where the layer
// does. Decode reads every GPU-resident byte at GPU bandwidth and every RAM-resident
// byte at RAM bandwidth, one after the other: the time per token is their sum.
#include "qsel/sizing/placement.h"
#include "qsel/core/json_number.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "qsel/core/ggml_types.h"
#include "qsel/core/text.h"

namespace qsel {
using nlohmann::json;
double Host::usable_gb() const { return std::max(0.0, ram_gb - kOsReserveGb); }
double Host::comfortable_gb() const { return std::max(0.0, usable_gb() - kRamComfortShare * ram_gb); }

Host default_host() {
  // 32 GB: the larger of the two most common sizes in Steam's hardware survey (16 GB
  // and 32 GB), the size a machine people run local models on usually has; dual-channel
  // DDR5-5600 (2 x 64 bit x 5600 MT/s = 89.6 GB/s) as on current desktops. --ram and
  // --ram-bandwidth replace both; --gpu auto reads the installed RAM.
  return {32 * kGiBInGB, 89.6, "default: 32 GiB (34.4 GB) of dual-channel DDR5-5600 (89.6 GB/s); give --ram and --ram-bandwidth for this machine's"};
}

bool can_offload(const Record* engine, const Record& a) {
  if (!engine || !object_field(engine->data, "offload").value("layers", false)) return false;
  return to_lower(a.str("memory_type")).find("unified") == std::string::npos;  // a described part is a discrete card
}

double head_bpw(const Record& f) {
  const json& mix = object_field(f.data, "mixture");
  for (const auto& p : array_field(mix, "promoted"))
    if (p.value("tensors", "").find("output") != std::string::npos || mix.value("base_tensors", "") == "experts")
      if (const GgmlType* t = find_ggml_type(p.value("type", ""))) return t->bpw();
  return 0;
}

double expert_bpw(const Record& f) {
  const json& mix = object_field(f.data, "mixture");
  if (mix.value("base_tensors", "") != "experts") return 0;
  return object_field(f.data, "bpw").value("struct", 0.0);
}

double embedding_bpw(const Record& f) {
  const json& mix = object_field(f.data, "mixture");
  if (mix.value("base_tensors", "") == "experts")
    for (const auto& p : array_field(mix, "promoted"))
      if (const GgmlType* t = find_ggml_type(p.value("type", ""))) return t->bpw();
  const json& bpw = object_field(f.data, "bpw");
  if (bpw.value("struct", json()).is_number()) return bpw["struct"].get<double>();
  if (f.str("scheme") == "unquantized") return 16;
  return 0;
}

namespace {

// Layers of the given sizes, in order, over `gpus` devices of `each` GB, the last also holding `tail` GB (the output
// head): how many each takes when each is filled in turn (llama.cpp gives a device a contiguous run of layers), the
// output layer counted on the last (-ts as llama.cpp reads it); `placed` says how many of the layers found room.
// Nothing when the last device cannot hold the head. Filling in turn fits whenever any contiguous split does.
std::optional<std::vector<int>> fill_in_order(const std::vector<double>& sizes, int gpus, double each, double tail, std::size_t& placed) {
  std::vector<int> counts(static_cast<std::size_t>(gpus), 0);
  placed = 0;
  for (int g = 0; g < gpus; ++g) {
    double room = each - (g == gpus - 1 ? tail : 0), used = 0;
    if (room < 0) return std::nullopt;
    while (placed < sizes.size() && used + sizes[placed] <= room + 1e-9) used += sizes[placed++], ++counts[static_cast<std::size_t>(g)];
  }
  ++counts.back();  // the output layer
  return counts;
}

// The same, when every layer must find room.
std::optional<std::vector<int>> pack_in_order(const std::vector<double>& sizes, int gpus, double each, double tail) {
  std::size_t placed = 0;
  auto counts = fill_in_order(sizes, gpus, each, tail, placed);
  if (!counts || placed < sizes.size()) return std::nullopt;
  return counts;
}

}  // namespace

std::optional<Placement> plan_placement(const PlacementInput& in, const Host& host, std::string* why_not) {
  const ModelSpec& m = *in.model;
  int layers = std::max(1, m.layers);
  double table = static_cast<double>(m.vocab) * m.hidden / 1e9;                  // billions, one embedding table
  double embed_in = table * (in.embed_bpw > 0 ? in.embed_bpw : in.bpw) / 8;       // token_embd, always in RAM
  double head = table * (in.head_bpw > 0 ? in.head_bpw : in.bpw) / 8;  // the output head (tied: llama.cpp keeps a copy for it)
  double layer = std::max(0.0, (in.weights_gb - embed_in - head) / layers);
  double kv_layer = in.kv_gb / layers;
  double room = in.gpu_room_gb;
  int gpus = std::max(1, in.gpus);
  Placement p;
  p.layers = layers;
  bool experts_plan = m.moe() && m.active_experts > 0 && m.experts > m.active_experts && in.engine &&
                      object_field(in.engine->data, "offload").value("experts", false);
  bool forced = in.force_gpu_layers >= 0 || in.force_cpu_moe >= 0;
  if (experts_plan && (!forced || in.force_cpu_moe >= 0)) {
    double per_expert = m.params_per_expert_b();  // billions
    double expert_layer = std::min(layer, per_expert * m.experts * (in.expert_bpw > 0 ? in.expert_bpw : in.bpw) / 8 / layers);
    double rest_layer = layer - expert_layer;
    double active = static_cast<double>(m.active_experts) / m.experts;
    auto vram_with = [&](int n) { return layers * (rest_layer + kv_layer) + (layers - n) * expert_layer + head; };
    // --n-cpu-moe N empties the first N layers of their experts: on several GPUs the light layers land on the first ones.
    auto split_with = [&](int n) {
      std::vector<double> sizes(static_cast<std::size_t>(layers), rest_layer + kv_layer);
      for (int i = n; i < layers; ++i) sizes[static_cast<std::size_t>(i)] += expert_layer;
      return pack_in_order(sizes, gpus, room / gpus, head);
    };
    int n = in.force_cpu_moe >= 0 ? std::min(in.force_cpu_moe, layers) : 1;
    std::optional<std::vector<int>> counts;
    auto holds = [&](int k) { return vram_with(k) <= room && (gpus == 1 || (counts = split_with(k))); };
    while (in.force_cpu_moe < 0 && n <= layers && !holds(n)) ++n;  // the fewest expert layers in RAM that fit
    if (n <= layers) {
      if (gpus > 1 && (counts || (counts = split_with(n)))) p.split = *counts;
      p.kind = "experts";
      p.cpu_moe_layers = n;
      p.gpu_layers = layers;
      p.vram_gb = vram_with(n);
      p.ram_gb = n * expert_layer + embed_in;
      p.gpu_stream_gb = layers * (rest_layer + kv_layer) + (layers - n) * expert_layer * active + head;
      p.ram_stream_gb = n * expert_layer * active;
      p.kv_where = "GPU (every layer's attention stays there)";
    }
  }
  if (p.kind.empty()) {
    // -ngl N as current llama.cpp counts it: the output layer is the first of the N, then the
    // last N - 1 repeating layers (i_gpu_start = n_layer + 1 - N); N = layers + 1 is everything.
    double per = layer + kv_layer;
    int n = room >= head ? 1 + static_cast<int>(std::floor((room - head) / std::max(1e-9, per))) : 0;
    std::optional<std::vector<int>> counts;
    if (gpus > 1 && in.force_gpu_layers < 0) {  // each GPU holds whole layers of its own share; the last, the output layer too
      std::size_t placed = 0;
      counts = fill_in_order(std::vector<double>(static_cast<std::size_t>(layers), per), gpus, room / gpus, head, placed);
      n = counts ? 1 + static_cast<int>(placed) : 0;
    }
    if (in.force_gpu_layers >= 0) n = in.force_gpu_layers;
    n = std::min(n, layers + 1);
    if (n < 1) {
      *why_not = fmt::format("not even the output layer ({:.2f} GB), which llama.cpp puts on the GPU first, fits the {:.1f} GB the GPU gives",
                             head, room);
      return std::nullopt;
    }
    int on_gpu = n - 1;  // repeating layers on the GPU
    if (counts && in.force_gpu_layers < 0) p.split = *counts;
    p.kind = "layers";
    p.gpu_layers = n;
    p.vram_gb = head + on_gpu * per;
    p.ram_gb = (layers - on_gpu) * per + embed_in;
    p.gpu_stream_gb = head + on_gpu * per;
    p.ram_stream_gb = (layers - on_gpu) * per;
    p.kv_where = fmt::format("with each layer: {} on the GPU, {} in RAM", on_gpu, layers - on_gpu);
  }
  if (!forced && p.ram_gb > host.usable_gb()) {
    *why_not = fmt::format("the {} left in system RAM need {:.1f} GB; {:.0f} GB of RAM leaves {:.1f} GB after {:g} GB for the OS",
                           p.kind == "experts" ? "experts" : "layers", p.ram_gb, host.ram_gb, host.usable_gb(), kOsReserveGb);
    return std::nullopt;
  }
  if (double margin = host.usable_gb() - host.comfortable_gb(); margin > 0 && p.ram_gb > host.comfortable_gb())
    p.ram_tight_share = std::min(1.0, (p.ram_gb - host.comfortable_gb()) / margin);
  double t = (in.gpu_bandwidth_gbs > 0 ? p.gpu_stream_gb / in.gpu_bandwidth_gbs : 0) +
             (host.ram_bandwidth_gbs > 0 ? p.ram_stream_gb / host.ram_bandwidth_gbs : 0);
  p.decode_ceiling_tok_s = t > 0 ? 1 / t : 0;
  return p;
}

}  // namespace qsel
