// What a user hands qsel as a model: a config.json, a Hugging Face checkpoint
// folder (config.json, quantization configs, safetensors headers, the shard
// index) or a .gguf file. Only headers and small JSON files are read; every
// file name an index gives must stay inside the folder.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "qsel/artifact/gguf.h"

namespace qsel {

struct TensorInfo {
  std::string name;
  std::string dtype;                  // safetensors dtype ("BF16", "I32") or ggml type ("Q4_K")
  std::vector<std::uint64_t> shape;
  std::uint64_t elements = 0, bytes = 0;
};

struct Checkpoint {
  std::string path;
  std::string kind;                          // "gguf" | "safetensors" | "config"
  std::vector<std::string> read;             // every file read, in order
  nlohmann::json config;                     // config.json; null when there is none
  std::string config_file;
  nlohmann::json quantization_config;        // null when there is none
  std::string quantization_config_file;      // "config.json", "quantization_config.json", "quantize_config.json"
  nlohmann::json hf_quant_config;            // hf_quant_config.json; null when there is none
  std::vector<TensorInfo> tensors;
  std::optional<GgufFile> gguf;
  std::vector<std::string> notes;
};

// True when `path` names something read_checkpoint reads (an existing file or
// folder); recommend's --model takes a record id otherwise.
bool looks_like_checkpoint(const std::string& path);

// Reads `path`; a UsageError naming the file and byte (or line and column) on
// anything malformed.
Checkpoint read_checkpoint(const std::string& path);

}  // namespace qsel
