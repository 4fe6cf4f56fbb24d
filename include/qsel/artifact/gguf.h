// A GGUF file's header (magic, version, metadata, tensor infos), read and
// checked against the format's own rules (ggml docs/gguf.md, v2 and v3) without
// touching the weights. Every count and length is checked against the bytes
// left in the file and a plausibility cap before anything is allocated.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "qsel/core/ggml_types.h"

namespace qsel {

class ByteSource;

struct GgufTensor {
  std::string name;
  std::vector<std::uint64_t> dims;  // ne[0] first, as stored
  const GgmlType* type = nullptr;
  std::uint64_t offset = 0;         // from the start of the data section
  std::uint64_t elements = 0;
  std::uint64_t bytes = 0;
};

struct GgufFile {
  std::string path;
  std::uint32_t version = 0;
  std::uint64_t file_size = 0;
  std::uint64_t data_offset = 0;    // where tensor data starts (aligned)
  std::uint32_t alignment = 32;
  // Metadata by key (sorted: a keyed map, so 65,536 keys with long common
  // prefixes cost log n comparisons each, not n). Scalars as JSON values; strings
  // cut to their first 256 bytes; arrays as {"type": "string", "length": N,
  // "head": [first values]} (never the whole array).
  nlohmann::json metadata;
  std::vector<GgufTensor> tensors;

  // A metadata value, or null.
  const nlohmann::json* find(const std::string& key) const;
  // An integer metadata value (any integer type), or `fallback`.
  long long integer(const std::string& key, long long fallback = 0) const;
  std::string string(const std::string& key) const;
};

// Reads and checks the header; a UsageError "path: byte N: …" on anything the
// spec does not allow or that does not fit in the file.
GgufFile read_gguf(const std::string& path);
// The same from any byte source (a file on a server, read by Range).
GgufFile read_gguf(const ByteSource& source);

}  // namespace qsel
