// What a user hands qsel as a model: a config.json, a Hugging Face checkpoint
// folder (config.json, quantization configs, safetensors headers, the shard
// index) or a .gguf file. Only headers and small JSON files are read; every
// file name an index gives must stay inside the folder.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "qsel/artifact/binary_file.h"
#include "qsel/artifact/gguf.h"
#include "qsel/artifact/read_budget.h"

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
  std::string config_text;                   // config.json as read
  nlohmann::json quantization_config;        // null when there is none
  std::string quantization_config_file;      // "config.json", "quantization_config.json", "quantize_config.json"
  nlohmann::json hf_quant_config;            // hf_quant_config.json; null when there is none
  std::vector<TensorInfo> tensors;
  std::optional<GgufFile> gguf;
  std::vector<std::string> notes;
};

// Where a checkpoint's files are: a local folder, or a repository on the Hub
// (model/hub_tree.h). File names are relative to the root.
class FileTree {
 public:
  virtual ~FileTree() = default;
  virtual std::string root() const = 0;                         // names the tree in messages
  virtual std::string name(const std::string& file) const = 0;  // names one file in messages and `read`
  virtual bool has(const std::string& file) const = 0;          // a regular file of that name
  virtual std::vector<std::string> files_with_ext(std::string_view ext) const = 0;  // top level, sorted
  virtual std::string read_text(const std::string& file, std::size_t cap, std::string_view what) const = 0;
  virtual std::unique_ptr<ByteSource> open(const std::string& file) const = 0;
  // The files about to be opened, in order: a tree that can read their starts
  // ahead, all at once (a Hub repository), does; the readers still open and
  // parse them one by one, so the answer and its errors are the serial ones.
  virtual void prefetch(const std::vector<std::string>& files) const { (void)files; }
};

// The folder reading of read_checkpoint over any tree: config.json, the
// quantization configs, the shard index and each shard's header, else one .gguf.
// `limits` bound the whole read (artifact/read_budget.h).
Checkpoint read_checkpoint_tree(const FileTree& tree, ReadLimits limits = ReadLimits::local());
// One GGUF file (local or remote) as a checkpoint; the parts of a split file
// in order (the first holds the metadata, each its own tensors).
Checkpoint read_gguf_checkpoint(const std::vector<const ByteSource*>& parts, ReadLimits limits = ReadLimits::local());

// True when `path` names something read_checkpoint reads (an existing file or
// folder); recommend's --model takes a record id otherwise.
bool looks_like_checkpoint(const std::string& path);

// True when the user meant `name` as a path on this machine, whether or not it exists:
// it starts with ./, ../, / or ~, its first component exists here, or its last component
// ends in a file extension (.gguf, .json, .safetensors …). A missing one is then "no such
// file or folder" (missing_path_error), never a question to the Hub.
bool names_local_path(std::string_view name);

// "NAME: no such file or folder", with the nearest existing entry beside the first missing
// component ("did you mean examples/qwen3-32b?"), and how to ask the Hub for the same
// words when they also read as ORG/NAME (`hub_id`).
std::string missing_path_error(const std::string& name, bool hub_id);

// Reads `path`; a UsageError naming the file and byte (or line and column) on
// anything malformed.
Checkpoint read_checkpoint(const std::string& path);

}  // namespace qsel
