// The model a recommendation is for: from --model-size (a reference architecture
// of that size class), --model (a model record) or --model-config (a Hugging
// Face config.json). Everything the memory model needs, with where it came from.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "qsel/artifact/gguf.h"
#include "qsel/graph/graph.h"

namespace qsel {

// A checkpoint the model's publisher releases (model record `releases`).
struct Release {
  std::string format;   // format record id
  std::string repo;     // Hugging Face repo id
  bool primary = false; // the format the model ships in
  bool official = true;
  bool local = false;   // the checkpoint the user named (--model PATH, or a Hub repo a record lists): served as it is
  bool qat = false;     // quantization-aware trained by the publisher: served as released, like the primary
  double file_gb = 0;   // the published file's size (release `file_gb`): sizes this release; 0 when not recorded
  std::string file;     // the GGUF file the repo's listing holds (release `file`); empty: the publishers' MODEL-QUANT.gguf
  bool repack = false;  // the primary's quantized weights in another container (GGUF of shipped MXFP4): as released
  bool listed = false;  // file and file_gb from the Hub repo's file list (--model ORG/NAME), not from the record
  std::string quant_method;  // how its config names the quantization (release `quant_method`); empty: not read
  std::string registry;      // the engine whose own library holds it under `repo` as a tag (release `registry`); empty: a Hub repo
  std::vector<std::string> not_engines;  // engines its publisher's recipe does not run on as they stand (release `not_on.engines`)
  std::string not_reason;                // why (release `not_on.reason`)
};

// The Hub repository --model named, as its file list was read: the GGUF types it holds
// name the files the commands print; `problem` says why the list could not be read.
struct HubListing {
  std::string repo, revision, sha;
  std::vector<std::string> types;      // the quantization types of the GGUF files it holds ("Q4_K_M")
  std::vector<std::string> ambiguous;  // types more than one file carries ("m-Q4_K_M.gguf", "m-UD-Q4_K_M.gguf")
  std::string problem;             // non-empty: the list was not read (unreachable, offline): generic names
};

// What was read from the user's files (--model PATH): the identified format and
// the stored bytes, which replace the format's nominal bits per weight.
struct CheckpointFacts {
  std::string path;
  std::string format;              // format record id; empty when none matched
  double params = 0, bytes = 0;    // from the tensor headers; 0 when there were no weights
  std::string matched_by;          // "config.json quantization_config: quant_method=awq, bits=4"
  std::vector<std::string> read;   // files read
  std::vector<std::string> flags;  // serving facts the checkpoint implies ("checkpoint=w4a16")
  double bpw() const { return params > 0 ? bytes * 8 / params : 0; }
};

// The linear-attention (Gated DeltaNet) layers of a hybrid model (Qwen3-Next, Qwen3.5/3.6): each keeps a
// fixed-size recurrent state per sequence instead of a KV cache: a short-convolution state of
// (conv_kernel - 1) x (2 x key_heads x key_dim + value_heads x value_dim) values and the delta-rule state
// matrix of value_heads x key_dim x value_dim values (llama.cpp n_embd_r / n_embd_s, vLLM's
// gated_delta_net_state_shape). From config.json linear_* (model `linear_attention`).
struct LinearAttention {
  int layers = 0;  // linear-attention layers (the rest hold the KV cache)
  int key_heads = 0, value_heads = 0, key_dim = 0, value_dim = 0, conv_kernel = 0;
  bool any() const { return layers > 0 && value_heads > 0 && key_dim > 0 && value_dim > 0; }
  // Values one sequence keeps in one layer: the conv state and the delta-rule state.
  double conv_values() const { return (conv_kernel > 1 ? conv_kernel - 1 : 0) * (2.0 * key_heads * key_dim + 1.0 * value_heads * value_dim); }
  double state_values() const { return 1.0 * value_heads * key_dim * value_dim; }
};

struct ModelSpec {
  std::string id;            // model record id; empty for a config.json
  std::string description;   // "70B dense, reference architecture <model id> (…)"
  std::string origin;        // "reference" | "record" | "config" | "gguf" | "hub"
  std::string source;        // where the facts were read: a record, a path, or the Hub repo and commit
  double params_b = 0;       // total parameters (billions)
  double active_params_b = 0;
  int layers = 0, kv_layers = 0, hidden = 0, heads = 0, kv_heads = 0, head_dim = 0;
  long vocab = 0;
  bool tied_embeddings = false;
  double kept_16bit_params_b = 0;  // model `kept_16bit`: what its quantized checkpoints keep in 16-bit beside embeddings and head
  std::string attention = "gqa";  // mha | gqa | mla | sliding-window | hybrid
  int window = 0, sliding_layers = 0;
  int kv_lora_rank = 0, rope_dim = 0;
  LinearAttention linear;          // hybrid models: the recurrent layers' state shape; empty otherwise
  int experts = 0, active_experts = 0;
  int expert_ffn = 0;              // one routed expert's FFN width (moe_intermediate_size); 0 = unknown
  double gguf_expert_bpw = 0;      // bits per weight the experts keep in every GGUF (model `gguf_experts`: MXFP4 4.25); 0 = the label's
  std::string gguf_expert_type;    // that type's name ("MXFP4")
  std::string architecture;        // Hugging Face architecture class; empty when unknown
  std::string family;              // model family ("llama-3.1", "qwen3"): quality rows of the family stand for it
  std::string remote_code;         // why the checkpoint needs the engine's trust-remote-code setting; empty when it does not
  std::vector<std::pair<std::string, std::string>> engine_flags;  // engine id -> flags its card gives for the publisher's repo
  long max_context = 0;            // the longest context the model supports (max_position_embeddings); 0 = unknown
  long extended_context = 0;       // longer through the publisher's RoPE scaling (context_extension); 0 = none
  std::string extension_method;    // "YaRN"
  long extension_original = 0;     // the context the scaling factor multiplies (original_max_position_embeddings); 0 = unknown
  double rope_theta = 0;           // the RoPE base, for overrides that replace the whole RoPE block; 0 = not recorded
  std::vector<Release> releases;   // what the publisher ships; empty when unknown
  std::optional<CheckpointFacts> checkpoint;  // --model PATH
  std::optional<HubListing> hub;              // --model ORG/NAME: the repository's file list
  std::vector<std::string> notes;  // assumptions worth stating

  // The format the model ships in (its primary release), or null when unknown.
  const Release* shipped() const;

  bool moe() const { return experts > 1; }
  // One routed expert's parameters, billions: the inactive ones over the experts a token does not use.
  double params_per_expert_b() const { return (params_b - active_params_b) / (experts - active_experts); }
  bool sliding_window() const { return window > 0 && sliding_layers > 0; }
  double embedding_params_b() const;  // embeddings + LM head
  double attention_params_b() const;  // q, k, v, o projections of every layer (0 for MLA: not modelled)
};

// "70b", "8B", "1.5b", "8x7b", "235b-a22b". Throws UsageError on a spelling it cannot read.
ModelSpec model_from_size(const Graph& g, const std::string& size);
ModelSpec model_from_record(const Record& r);
// Throws UsageError naming the file, line and column of a problem.
ModelSpec model_from_config(const std::string& path);
// The same from the file's text (`path` names it in messages).
ModelSpec model_from_config_text(const std::string& text, const std::string& path);
// Checks --context against the model: beyond every length it supports is a
// UsageError naming the maximum; beyond the native one but within a recorded
// RoPE-scaling extension returns a note saying what the model needs; else "".
std::string context_note(const ModelSpec& m, long tokens);
// A GGUF file's shape from its metadata ({arch}.block_count …), parameters from its tensors.
ModelSpec model_from_gguf(const GgufFile& g);

}  // namespace qsel
