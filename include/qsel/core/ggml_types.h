// The ggml block structs (domain data that memory sizing and lint both read) (llama.cpp ggml/src/ggml-common.h):
// elements per block, bytes per block, and the scale group — how many weights
// share one scale. For the K-quants the block is a 256-element super-block
// whose scales cover 16 or 32 weights; only a few types have one scale per 256.
#pragma once
#include <optional>
#include <string_view>
#include <vector>

namespace qsel {

struct GgmlType {
  std::string_view name;  // "Q4_K"
  int block_elements;     // weights per block
  int block_bytes;        // bytes per block
  int scale_group;        // weights per scale; 0 for unquantized types and where not recorded
  int id = -1;            // enum ggml_type value as GGUF stores it
  bool quantized = true;
  double bpw() const { return block_bytes * 8.0 / block_elements; }
};

const std::vector<GgmlType>& ggml_types();

// A type by name, case-insensitive ("q4_k" finds Q4_K).
const GgmlType* find_ggml_type(std::string_view name);
// A type by its enum ggml_type value (GGUF tensor infos); null for ids no longer
// in use or unknown.
const GgmlType* ggml_type_by_id(long long id);

}  // namespace qsel
