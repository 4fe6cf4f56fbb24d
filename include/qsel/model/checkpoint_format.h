// What a checkpoint is, measured: the shipped format (a format record whose
// `checkpoint` signature the configs or the GGUF file type match), the
// parameter count from the tensors (packed weights unpacked as the signature
// says), bits per weight from the stored bytes, the group size as weights per
// scale element, and which tensors stay in 16-bit.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "qsel/artifact/checkpoint.h"
#include "qsel/graph/graph.h"

namespace qsel {

struct DtypeShare {
  std::string dtype;  // "Q4_K", "BF16", "I32"
  std::uint64_t tensors = 0;
  double params = 0, bytes = 0;
  int group = 0;      // ggml scale group (GGUF); 0 when not known
};

struct KeptTensors {
  std::string category;  // "embeddings", "lm_head", "attention", "router", "norms", "other"
  std::uint64_t tensors = 0;
  double params = 0;
  std::string example;   // one tensor name
};

struct CheckpointAnalysis {
  const Record* format = nullptr;              // null when no signature matches
  std::vector<const Record*> also;             // formats matching as well as `format`
  std::string matched_by;                      // "config.json quantization_config: quant_method=awq, bits=4"
  std::vector<std::string> settings;           // "bits 4", "group_size 128", "zero_point true"
  std::vector<std::string> flags;              // serving facts the matched signature implies ("checkpoint=w4a16")
  double params = 0, bytes = 0;                // the whole checkpoint
  double quantized_params = 0, quantized_bytes = 0;  // the payload tensors with their scales and auxiliaries
  std::optional<double> group;                 // weights per scale element (median over layers)
  std::optional<double> group_min, group_max;  // when layers differ
  std::vector<DtypeShare> by_dtype;            // largest first
  std::vector<KeptTensors> kept;               // tensors outside the quantized payload, by category
  std::vector<std::string> notes;

  double bpw() const { return params > 0 ? bytes * 8 / params : 0; }
  double quantized_bpw() const { return quantized_params > 0 ? quantized_bytes * 8 / quantized_params : 0; }
};

CheckpointAnalysis analyze_checkpoint(const Graph& g, const Checkpoint& c);

}  // namespace qsel
