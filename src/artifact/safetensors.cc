#include "qsel/artifact/safetensors.h"

#include <algorithm>

#include <fmt/format.h>

#include "qsel/artifact/binary_file.h"
#include "qsel/core/errors.h"
#include "qsel/core/text.h"

namespace qsel {
namespace {

using nlohmann::json;

constexpr std::uint64_t kMaxHeader = 100000000;  // the safetensors crate's MAX_HEADER_SIZE
constexpr std::size_t kMaxTensors = 200000;
constexpr int kMaxDepth = 16;

std::uint64_t count(const json& v) {
  return v.is_number_unsigned() ? v.get<std::uint64_t>() : v.is_number_integer() && v.get<long long>() >= 0 ? v.get<std::uint64_t>()
                                                                                                          : ~std::uint64_t(0);
}

}  // namespace

int safetensors_dtype_bits(const std::string& dtype) {
  static const std::pair<const char*, int> bits[] = {
      {"BOOL", 8}, {"U8", 8}, {"I8", 8}, {"F8_E5M2", 8}, {"F8_E4M3", 8}, {"F8_E8M0", 8}, {"I16", 16}, {"U16", 16},
      {"F16", 16}, {"BF16", 16}, {"I32", 32}, {"U32", 32}, {"F32", 32}, {"F64", 64}, {"I64", 64}, {"U64", 64},
      {"F4", 4}, {"F6_E2M3", 6}, {"F6_E3M2", 6}};
  for (const auto& [name, b] : bits)
    if (dtype == name) return b;
  return 0;
}

SafetensorsFile read_safetensors(const std::string& path) {
  BinaryFile f(path);
  return read_safetensors(f);
}

SafetensorsFile read_safetensors(const ByteSource& f) {
  Cursor c(f);
  SafetensorsFile s;
  s.path = f.path();
  s.file_size = f.size();
  s.header_size = c.u64("the header length");
  if (s.header_size > kMaxHeader) c.fail_at(0, fmt::format("header length {} is over the format's limit of {} bytes", s.header_size, kMaxHeader));
  if (s.header_size > c.left())
    c.fail_at(0, fmt::format("header length {} is larger than the {} bytes after it", s.header_size, c.left()));
  std::string header = c.bytes(s.header_size, kMaxHeader, "the header");
  if (header.empty() || header[0] != '{') c.fail_at(8, "the header must start with '{'");
  if (std::size_t bad = find_invalid_utf8(header); bad != std::string::npos) c.fail_at(8 + bad, "the header is not valid UTF-8");
  if (json_nesting(header) > kMaxDepth) c.fail_at(8, fmt::format("the header nests deeper than {} levels", kMaxDepth));
  json h;
  try {
    h = json::parse(header);
  } catch (const json::parse_error& e) {
    c.fail_at(8 + (e.byte > 0 ? e.byte - 1 : 0), "the header is not valid JSON");
  } catch (const json::exception&) {  // a number beyond the double range
    c.fail_at(8, "the header holds a number beyond the double range");
  }
  if (!h.is_object()) c.fail_at(8, "the header must be a JSON object");
  if (h.size() > kMaxTensors) c.fail_at(8, fmt::format("{} entries; at most {} tensors per file are read", h.size(), kMaxTensors));
  const std::uint64_t data = s.file_size - 8 - s.header_size;
  auto bad = [&](const std::string& name, const std::string& what) {
    c.fail_at(8, fmt::format("tensor \"{}\": {}", quote_value(name).substr(1, quote_value(name).size() - 2), what));
  };
  for (auto& [name, v] : h.items()) {
    if (name == "__metadata__") {
      if (!v.is_object()) c.fail_at(8, "__metadata__ must be an object of strings");
      for (auto& [k, x] : v.items())
        if (!x.is_string()) c.fail_at(8, fmt::format("__metadata__ \"{}\" must be a string", k));
      s.metadata = v;
      continue;
    }
    if (!v.is_object() || !v.contains("dtype") || !v["dtype"].is_string() || !v.contains("shape") || !v["shape"].is_array() ||
        !v.contains("data_offsets") || !v["data_offsets"].is_array() || v["data_offsets"].size() != 2)
      bad(name, "expected {\"dtype\": string, \"shape\": [ints], \"data_offsets\": [begin, end]}");
    StTensor t;
    t.name = name;
    t.dtype = v["dtype"].get<std::string>();
    if (t.dtype.empty() || t.dtype.size() > 16) bad(name, "dtype is not a safetensors dtype name");
    if (v["shape"].size() > 8) bad(name, fmt::format("{} dimensions", v["shape"].size()));
    t.elements = 1;
    for (const auto& d : v["shape"]) {
      std::uint64_t n = count(d);
      if (n > (std::uint64_t(1) << 50) || (n != 0 && t.elements > (std::uint64_t(1) << 62) / n)) bad(name, "shape is not a list of plausible sizes");
      t.shape.push_back(n);
      t.elements *= n;
    }
    t.begin = count(v["data_offsets"][0]);
    t.end = count(v["data_offsets"][1]);
    if (t.begin > t.end || t.end > data)
      bad(name, fmt::format("data_offsets [{}, {}] are outside the {} bytes of data", v["data_offsets"][0].dump(), v["data_offsets"][1].dump(), data));
    if (int bits = safetensors_dtype_bits(t.dtype); bits > 0) {
      std::uint64_t want = (t.elements * static_cast<std::uint64_t>(bits) + 7) / 8;
      if (t.bytes() != want) bad(name, fmt::format("{} bytes for {} {} values ({} expected)", t.bytes(), t.elements, t.dtype, want));
    } else {
      s.notes.push_back(fmt::format("tensor \"{}\" has dtype {}, which qsel does not know; its size is taken from its offsets", name, t.dtype));
    }
    s.tensors.push_back(std::move(t));
  }
  std::vector<const StTensor*> by_begin;
  for (const auto& t : s.tensors) by_begin.push_back(&t);
  std::sort(by_begin.begin(), by_begin.end(), [](auto* a, auto* b) { return a->begin < b->begin || (a->begin == b->begin && a->end < b->end); });
  std::uint64_t covered = 0;
  for (std::size_t i = 0; i < by_begin.size(); ++i) {
    const StTensor& t = *by_begin[i];
    if (i + 1 < by_begin.size() && t.end > by_begin[i + 1]->begin && t.bytes() > 0)
      c.fail_at(8 + s.header_size + by_begin[i + 1]->begin, fmt::format("tensors \"{}\" and \"{}\" overlap", t.name, by_begin[i + 1]->name));
    if (t.begin > covered && s.notes.size() < 8) s.notes.push_back(fmt::format("{} bytes unaccounted for before tensor \"{}\"", t.begin - covered, t.name));
    covered = std::max(covered, t.end);
  }
  return s;
}

}  // namespace qsel
