#include "support/artifact_writer.h"

#include <cstring>

namespace qsel::test {

std::string le32(std::uint32_t v) {
  std::string s(4, '\0');
  for (int i = 0; i < 4; ++i) s[i] = static_cast<char>((v >> (8 * i)) & 0xFF);
  return s;
}

std::string le64(std::uint64_t v) {
  std::string s(8, '\0');
  for (int i = 0; i < 8; ++i) s[i] = static_cast<char>((v >> (8 * i)) & 0xFF);
  return s;
}

std::string gguf_str(const std::string& s) { return le64(s.size()) + s; }

void GgufWriter::u32(const std::string& key, std::uint32_t v) {
  kv_ += gguf_str(key) + le32(4) + le32(v);
  ++n_kv_;
}

void GgufWriter::u64(const std::string& key, std::uint64_t v) {
  kv_ += gguf_str(key) + le32(10) + le64(v);
  ++n_kv_;
}

void GgufWriter::f32(const std::string& key, float v) {
  std::uint32_t b;
  std::memcpy(&b, &v, 4);
  kv_ += gguf_str(key) + le32(6) + le32(b);
  ++n_kv_;
}

void GgufWriter::boolean(const std::string& key, bool v) {
  kv_ += gguf_str(key) + le32(7) + std::string(1, v ? '\1' : '\0');
  ++n_kv_;
}

void GgufWriter::str(const std::string& key, const std::string& v) {
  kv_ += gguf_str(key) + le32(8) + gguf_str(v);
  ++n_kv_;
}

void GgufWriter::str_array(const std::string& key, const std::vector<std::string>& v) {
  kv_ += gguf_str(key) + le32(9) + le32(8) + le64(v.size());
  for (const auto& s : v) kv_ += gguf_str(s);
  ++n_kv_;
}

void GgufWriter::i32_array(const std::string& key, const std::vector<std::int32_t>& v) {
  kv_ += gguf_str(key) + le32(9) + le32(5) + le64(v.size());
  for (auto x : v) kv_ += le32(static_cast<std::uint32_t>(x));
  ++n_kv_;
}

void GgufWriter::tensor(const std::string& name, const std::vector<std::uint64_t>& dims, std::uint32_t type, std::uint32_t block_elements,
                        std::uint32_t block_bytes) {
  std::uint64_t n = 1;
  for (auto d : dims) n *= d;
  tensors_.push_back({name, dims, type, n / block_elements * block_bytes});
}

std::size_t GgufWriter::header_bytes() const {
  std::size_t n = 4 + 4 + 8 + 8 + kv_.size();
  for (const auto& t : tensors_) n += 8 + t.name.size() + 4 + 8 * t.dims.size() + 4 + 8;
  return n;
}

std::string GgufWriter::bytes() const {
  auto [head, size] = header_and_size();
  return head + std::string(size - head.size(), '\0');
}

std::pair<std::string, std::uint64_t> GgufWriter::header_and_size() const {
  std::string out = "GGUF" + le32(version) + le64(tensors_.size()) + le64(n_kv_) + kv_;
  std::uint64_t offset = 0;
  std::vector<std::uint64_t> offsets;
  for (const auto& t : tensors_) {
    offsets.push_back(offset);
    out += gguf_str(t.name) + le32(static_cast<std::uint32_t>(t.dims.size()));
    for (auto d : t.dims) out += le64(d);
    out += le32(t.type) + le64(offset);
    offset += (t.size + alignment - 1) / alignment * alignment;
  }
  out.append((alignment - out.size() % alignment) % alignment, '\0');
  std::uint64_t data = tensors_.empty() ? 0 : offsets.back() + tensors_.back().size;
  return {out, out.size() + data};
}

std::string safetensors_bytes(const nlohmann::json& entries, const nlohmann::json& metadata) {
  auto [head, size] = safetensors_header(entries, metadata);
  return head + std::string(size - head.size(), '\0');
}

std::pair<std::string, std::uint64_t> safetensors_header(const nlohmann::json& entries, const nlohmann::json& metadata) {
  nlohmann::json header = nlohmann::json::object();
  std::uint64_t offset = 0;
  for (const auto& e : entries) {
    std::uint64_t n = e["bytes"].get<std::uint64_t>();
    header[e["name"].get<std::string>()] = {{"dtype", e["dtype"]}, {"shape", e["shape"]}, {"data_offsets", {offset, offset + n}}};
    offset += n;
  }
  if (!metadata.is_null()) header["__metadata__"] = metadata;
  std::string h = header.dump();
  h.append((8 - h.size() % 8) % 8, ' ');  // the reference writer pads with spaces
  return {le64(h.size()) + h, 8 + h.size() + offset};
}

}  // namespace qsel::test
