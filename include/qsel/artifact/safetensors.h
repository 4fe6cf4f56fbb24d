// A safetensors file's header: the 8-byte length, the JSON table of tensors
// (dtype, shape, data_offsets) and __metadata__, checked the way the format
// defines it (huggingface/safetensors: header at most 100,000,000 bytes,
// starting with '{', offsets inside the data and not overlapping, byte sizes
// matching dtype x shape). The weights are never read.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace qsel {

class ByteSource;

struct StTensor {
  std::string name;
  std::string dtype;                 // "BF16", "I32", "F8_E4M3", …
  std::vector<std::uint64_t> shape;
  std::uint64_t begin = 0, end = 0;  // byte offsets inside the data section
  std::uint64_t elements = 0;
  std::uint64_t bytes() const { return end - begin; }
};

struct SafetensorsFile {
  std::string path;
  std::uint64_t file_size = 0;
  std::uint64_t header_size = 0;
  std::vector<StTensor> tensors;
  nlohmann::json metadata;           // __metadata__ (string to string), or null
  std::vector<std::string> notes;    // what was odd but allowed (a hole between tensors)
};

// Bits per element of a safetensors dtype (4 for F4, 6 for F6_*); 0 when unknown.
int safetensors_dtype_bits(const std::string& dtype);

// Reads and checks the header; a UsageError "path: byte N: …" otherwise.
SafetensorsFile read_safetensors(const std::string& path);
// The same from any byte source (a file on a server, read by Range).
SafetensorsFile read_safetensors(const ByteSource& source);

}  // namespace qsel
