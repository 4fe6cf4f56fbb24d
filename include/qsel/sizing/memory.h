// The memory and speed model: weights, KV cache, the engine's budget, and the
// bandwidth-roofline decode ceiling. GB = 1e9 bytes throughout. Sizing reads
// records and a model's shape; it knows nothing of candidates or rules (the
// rules size each candidate through rules/candidate_memory.h).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "qsel/graph/graph.h"
#include "qsel/model/model_spec.h"
#include "qsel/sizing/forecast.h"
#include "qsel/sizing/placement.h"

namespace qsel {

// What one device gives one engine (per GPU), and what the engine keeps for itself.
struct Budget {
  double capacity_gb = 0;        // the vendor's capacity, read in its unit (80 GB HBM = 80 GiB = 85.9 GB)
  double total_gb = 0;           // what the engine sizes from: the driver's total, or the Metal working set
  std::string total_source;      // how total_gb was obtained
  std::string kind = "whole-device";  // the engine's budget kind (engine memory.budget)
  double fraction = 1;           // the engine's fraction (vLLM gpu_memory_utilization, SGLang mem_fraction_static ...)
  std::string fraction_source;
  bool fraction_of_capacity = false;  // the fraction was lowered to what is free and applies to capacity_gb (vLLM's start-up check)
  double activation_gb = 0, non_torch_gb = 0, cuda_graphs_gb = 0, buffers_gb = 0;  // kept by the engine, per GPU
  double for_model_gb = 0;       // what weights and KV cache may use, summed over the GPUs
  std::string statement;         // one line: capacity, budget, overheads, sources
  // On unified memory, when the OS lets the GPU use less than the part holds (a Metal working set,
  // a GPU-visible share, what is free at boot): that share, its source and how to raise it. Empty
  // on discrete GPUs, whose driver total differs from the label only by its reserve.
  std::string cap_note;
};

// How one model is laid across the GPUs asked for: tensor parallel within a node, pipeline stages
// (across nodes, or where a larger TP is refused), expert parallelism (whole experts per GPU), and
// replicas (data parallel) of what one replica needs. An engine without tensor parallelism splits by
// layer (llama.cpp -sm layer).
struct Layout {
  int tp = 1, pp = 1, dp = 1;  // tensor-parallel size, pipeline stages, replicas
  bool ep = false;             // expert parallelism (--enable-expert-parallel, --ep-size)
  bool layer_split = false;    // the engine splits layers across its GPUs, one after another
  int idle = 0;                // GPUs of the count no replica uses
  int nodes = 1;               // nodes one replica spans
  int per_node = 8;            // GPUs per node the plan assumed
  std::string flags;           // the engine's launch flags for it ("--tensor-parallel-size 8 --enable-expert-parallel")
  std::vector<std::string> why;  // why a simpler layout was not taken, and what the plan assumed
  int layer_gpus = 1;          // layer_split: the GPUs the layers spread over
  int gpus() const { return layer_split ? layer_gpus : tp * pp; }  // GPUs one replica uses
  std::string describe() const;  // "TP 8 + EP", "TP 2 x PP 3", "TP 8 x 8 replicas", "layers over 2 GPUs"
};

// A command line that carries out a plan (rules/launch.h).
struct LaunchCommand {
  std::string role;     // serve (a server started first, its settings in its environment) | import (a local file the engine names first) | run (the plan) | fit (the engine fits itself: the alternative) | hub (the engine fetches the file from the Hub) | quantize (a file you make first)
  std::string program;  // the engine `cli` program it runs
  std::string text;     // the whole line
};

struct Memory {
  double weights_gb = 0, kv_gb = 0, total_gb = 0, budget_gb = 0;
  double state_gb = 0;       // a hybrid model's recurrent state (linear-attention layers) for state_sequences sequences; 0 otherwise
  int state_sequences = 0;   // the sequences the engine keeps that state for
  double state_bytes = 0;    // bytes per state value the engine keeps (llama.cpp f32: 4)
  Budget budget;
  double bpw = 0;
  std::string bpw_source;   // "measured on <model>", "block struct", "derived: 4 + 16/128"
  double chosen_bpw = 0;     // a bitrate the user picks (EXL2/EXL3 -b): the one chosen; 0 otherwise
  bool chosen_published = false;  // that bitrate is one quantizers publish (else a custom one you quantize yourself)
  std::string kv_dtype;     // a dtype name or the KV-cache format record used
  bool fits = false;         // it loads within the engine's budget (true for "tight" too)
  std::string fit = "no";    // yes (with the margin to spare) | tight (inside the margin) | offload (part in system RAM) | slow (offload under --min-tok-s) | no
  double margin_gb = 0;      // the headroom "yes" keeps, summed over the parts
  int parts = 1;             // GPUs one replica uses (layout.gpus()): the budget and the weights are over these
  Layout layout;
  std::string margin_source;
  std::string setting;       // the serving settings the fit needs ("--gpu-memory-utilization 0.95 --max-num-seqs 16"); empty when none
  int max_num_seqs = 0;      // the sequences setting among them (0: the engine's default)
  bool fraction_raised = false;  // the fit needs the engine's memory fraction raised (engine memory.fraction_raise)
  int sequences = -1;        // serving engines: sequences of the query's context the KV room holds (-1: not a serving engine)
  int running = 1;           // sequences decoded at once at the end of the context: the batch, or what the KV pool holds of it
  double capacity_short = 0; // the share of --concurrency the KV room lacks (0: none), which makes the fit tight
  int sequences_kept = -1;   // serving engines: what the KV room holds with the headroom margin kept free
  int capacity_asked = 0;     // sequences the user asked to serve at once (--batch or --concurrency given), else 0
  std::optional<Placement> placement;  // set when the model runs partly from system RAM
  double decode_tok_s = 0;  // bandwidth roofline ceiling, aggregate over the batch
  double compute_tok_s = 0; // compute ceiling at the path's precision (0: unknown)
  double forecast_tok_s = 0;  // the ceiling times the engine's measured efficiency (0: no calibration)
  double per_sequence_tok_s = 0;  // forecast_tok_s over the sequences decoding at once (one user's rate, 1000/TPOT)
  // forecast_tok_s is the rate at the end of the context, the KV cache of the whole --context read each step;
  // this is the rate at its start, the weights alone (and any recurrent state). 0: not forecast (offload plans).
  double forecast_start_tok_s = 0;
  Efficiency efficiency;      // what the forecast rests on
  std::vector<std::string> notes;
  std::vector<LaunchCommand> commands;  // set for a plan that fits, when its engine records how it is launched
};


struct Bpw {
  double value = 0;
  std::string source;  // "measured on <model>", "block struct", "derived: 4 + 16/128"
  bool whole_model = false;  // a measured figure already covers embeddings and promotions
};

// A format the engines serve as the unquantized model (scheme: unquantized).
bool is_baseline(const Record& format);
// A format that quantizes weights alone (activations stay 16-bit).
bool weight_only(const Record& format);

// The bits per weight to size `format` with (Rule 5: measured before struct, never the name).
// With the graph, a figure measured on another model is taken from the one closest in size.
Bpw choose_bpw(const Record& format, const ModelSpec& model, const Graph* g = nullptr);
double weights_gb(const Record& format, const ModelSpec& model, const Bpw& bpw);
// An engine library tag's size as its page shows it (release `file_gb`, to the page's last digit: one decimal
// under 10 GB, whole GB from 10), against `estimate_gb` from the type's bits: the estimate when the shown figure
// allows it (it is the finer of the two), else the nearest size the figure allows (Ollama's gemma3n:e4b keeps the
// per-layer embeddings at high precision: 7.5 GB where Q4_K_M's bits give 4.9).
double library_tag_gb(double shown_gb, double estimate_gb);
// KV cache for `tokens` tokens of context and `batch` sequences at `bytes` per element; `windowed` false for an engine
// whose cache holds the whole context on sliding-window layers too (engine memory.kv_window: full).
double kv_cache_gb(const ModelSpec& model, long tokens, int batch, double bytes, bool windowed = true);
// The recurrent state of a hybrid model's linear-attention layers (model.linear) for `sequences`
// sequences at `bytes` per value, GB: whatever the context (0 for a model without such layers).
double recurrent_state_gb(const ModelSpec& model, int sequences, double bytes);
// What `count` parts give an engine for weights and KV cache, with every
// figure the engine keeps for itself (activation peak, non-torch memory, CUDA
// graphs, buffers). `fraction_override` (--memory-fraction) replaces the engine's
// fraction when positive. `weights_gb` is needed by fraction-of-free engines.
Budget engine_budget(const Record& accelerator, const Record& target, int count, const Record* engine, const ModelSpec& model,
                     double weights_gb, double fraction_override = 0);
// The device total an engine sizes from, per part, in GB, and where it came from.
// `is_free`, when given, says whether the figure is what is free (--vram-free, a part's free-at-boot record).
double device_total_gb(const Record& accelerator, const Record& target, std::string* source, bool* is_free = nullptr);
// The vendor's capacity in GB (memory_gb read as GiB or GB by memory_unit); 0 when unknown.
double capacity_gb(const Record& accelerator);

}  // namespace qsel
