// Writers for the binary formats qsel reads, following the published specs
// (ggml docs/gguf.md v3; huggingface/safetensors README), so tests build their
// own fixtures and compute expected values from the spec, not from qsel.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace qsel::test {

// Little-endian encoders.
std::string le32(std::uint32_t v);
std::string le64(std::uint64_t v);
std::string gguf_str(const std::string& s);  // u64 length + bytes

// A GGUF v3 file: metadata key/values, tensor infos, alignment padding and
// zero-filled tensor data at aligned offsets.
class GgufWriter {
 public:
  // GGUF value types (gguf.md): 4 u32, 5 i32, 6 f32, 7 bool, 8 string, 9 array, 10 u64.
  void u32(const std::string& key, std::uint32_t v);
  void u64(const std::string& key, std::uint64_t v);
  void f32(const std::string& key, float v);
  void boolean(const std::string& key, bool v);
  void str(const std::string& key, const std::string& v);
  void str_array(const std::string& key, const std::vector<std::string>& v);
  void i32_array(const std::string& key, const std::vector<std::int32_t>& v);
  // A tensor of ggml type `type` (enum ggml_type); its byte size comes from the
  // block size and bytes per block given (the spec's type_traits).
  void tensor(const std::string& name, const std::vector<std::uint64_t>& dims, std::uint32_t type, std::uint32_t block_elements,
              std::uint32_t block_bytes);
  std::uint32_t alignment = 32;
  std::uint32_t version = 3;
  std::string bytes() const;                 // the whole file
  std::pair<std::string, std::uint64_t> header_and_size() const;  // up to the data (aligned), and the whole size
  std::size_t header_bytes() const;          // up to the end of the tensor infos

 private:
  std::string kv_;
  std::uint64_t n_kv_ = 0;
  struct T {
    std::string name;
    std::vector<std::uint64_t> dims;
    std::uint32_t type;
    std::uint64_t size;
  };
  std::vector<T> tensors_;
};

// A safetensors file: the 8-byte header length, the JSON header (entries as
// given, data_offsets filled in order from each entry's "bytes"), zero data.
// `entries`: [{"name", "dtype", "shape", "bytes"}]; `metadata` becomes __metadata__.
std::string safetensors_bytes(const nlohmann::json& entries, const nlohmann::json& metadata = nullptr);
// The same file's start (length and header) and its whole size, for files too
// large to hold (a served 20 GB shard reads as zeros after the header).
std::pair<std::string, std::uint64_t> safetensors_header(const nlohmann::json& entries, const nlohmann::json& metadata = nullptr);

}  // namespace qsel::test
