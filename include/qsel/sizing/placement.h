// Where a model's tensors live when it does not fit on the GPU: llama.cpp's
// partial offload (-ngl N: the last N layers on the GPU, the rest and the input
// embeddings in system RAM) and, for MoE models, experts in RAM with attention
// and shared tensors on the GPU (--n-cpu-moe N). Each plan gives VRAM, RAM, where
// the KV cache lives, a decode forecast (GPU-resident bytes at GPU bandwidth,
// RAM-resident bytes at RAM bandwidth) and the command line to run.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "qsel/core/units.h"
#include "qsel/graph/graph.h"
#include "qsel/model/model_spec.h"

namespace qsel {

// The machine around the GPU.
struct Host {
  double ram_gb = 0;             // installed system RAM, GB
  double ram_bandwidth_gbs = 0;  // what a decode step streams from RAM at (theoretical)
  std::string source;            // "--ram 64", "detected: /proc/meminfo", "default: …"
  double usable_gb() const;      // what the model may take: RAM less the OS reserve
  double comfortable_gb() const; // what it takes and still leaves the OS a working page cache: usable less kRamComfortShare
};

// The default host when the user states none (docs/placement.md: sizes and sources).
Host default_host();
constexpr double kOsReserveGb = 4;  // RAM kept for the OS, the engine and its host buffers
// A share of the RAM a plan that is comfortable leaves free beyond the reserve: llama.cpp maps the weights
// (mmap) and reads them from the page cache every token, so a plan that fills RAM to the reserve has them
// evicted by any other program and re-read from disk (docs/placement.md, "RAM headroom"). qsel's choice.
constexpr double kRamComfortShare = 0.10;

struct Placement {
  std::string kind;          // "layers" (-ngl) | "experts" (--n-cpu-moe)
  int gpu_layers = 0;        // -ngl as llama.cpp counts it: the output layer and gpu_layers - 1 repeating layers
  int cpu_moe_layers = 0;    // layers whose experts stay in RAM (--n-cpu-moe)
  int layers = 0;
  double vram_gb = 0, ram_gb = 0;  // what each side holds (weights + their KV)
  double gpu_stream_gb = 0, ram_stream_gb = 0;  // bytes read per decode step from each side
  std::string kv_where;      // "GPU for the offloaded layers, RAM for the rest"
  std::string command;       // the run command (set by rules/launch.cc from the engine's launch templates)
  double decode_ceiling_tok_s = 0;  // GPU bytes at GPU bandwidth plus RAM bytes at RAM bandwidth
  double ram_tight_share = 0;       // how much of the comfort margin (kRamComfortShare of RAM) the RAM side takes, 0-1
  // On several GPUs: the GPU-side layers each one holds, in order (the output layer counted on the last): llama.cpp's -ts.
  // Layers differ in size when --n-cpu-moe empties the first ones of their experts, so an even split would not fit.
  std::vector<int> split;
};

// Whether `engine` can keep part of a model in system RAM on this part (engine
// `offload`, a discrete GPU: unified memory has nowhere else to put it).
bool can_offload(const Record* engine, const Record& accelerator);

struct PlacementInput {
  const ModelSpec* model = nullptr;
  double weights_gb = 0, kv_gb = 0, bpw = 0;
  double embed_bpw = 0;            // bits per weight of the input embeddings (the format's base type); 0 = bpw
  double head_bpw = 0;             // bits per weight of the output head (a mixture promotes it: Q4_K_M's is Q6_K); 0 = bpw
  double expert_bpw = 0;           // bits per weight of the expert tensors (an experts-only mixture's base: MXFP4); 0 = bpw
  double gpu_room_gb = 0;          // what the GPU gives weights and KV (the engine budget less the margin), over every GPU
  int gpus = 1;                    // identical GPUs the layers are split across (--split-mode layer), each with gpu_room_gb / gpus
  double gpu_bandwidth_gbs = 0;
  long context = 0;
  const Record* engine = nullptr;
  // A split the caller fixes instead of the one that fits (tests against public logs):
  // layers on the GPU (-ngl N as llama.cpp counts it: the output layer first, then N - 1 repeating layers; layers + 1 is all),
  // and layers whose experts stay in RAM (--n-cpu-moe N). -1: let the plan choose.
  int force_gpu_layers = -1, force_cpu_moe = -1;
};

// The bits per weight of a GGUF format's base type (what token_embd is stored in): the
// promoted type of an experts-only mixture, else the block struct; 0 when not recorded.
double embedding_bpw(const Record& format);
// The bits per weight a GGUF mixture gives the output head (a promoted type); 0 when it names none.
double head_bpw(const Record& format);
// The bits per weight of the experts in a mixture that quantizes experts alone (MXFP4_MOE); 0 otherwise.
double expert_bpw(const Record& format);

// The plan that keeps the most on the GPU while the rest fits the host's usable
// RAM: for an MoE model the fewest expert layers in RAM, else the most layers on
// the GPU; nothing when even the GPU-side minimum does not fit or RAM is short.
std::optional<Placement> plan_placement(const PlacementInput& in, const Host& host, std::string* why_not);

}  // namespace qsel
