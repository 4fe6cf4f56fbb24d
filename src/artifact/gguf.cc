#include "qsel/artifact/gguf.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include <unordered_set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "qsel/artifact/binary_file.h"
#include "qsel/core/checked.h"
#include "qsel/core/errors.h"
#include "qsel/core/text.h"

namespace qsel {
using nlohmann::json;
namespace {

constexpr std::uint32_t kMagic = 0x46554747;  // "GGUF" read as a little-endian u32
constexpr std::uint64_t kMaxGgufTensors = 1 << 16;
constexpr std::uint64_t kMaxKeys = 1 << 16;
constexpr std::uint64_t kMaxKeyBytes = 1 << 16;
constexpr std::uint64_t kMaxStringBytes = 1ull << 30;  // a chat template or a merge list; only its head is read
constexpr std::uint64_t kMaxNameBytes = 1024;
constexpr std::size_t kKeptString = 256;
constexpr std::size_t kKeptArray = 8;
// What one header may make qsel do, whatever its counts say. Real files stay far
// below: the largest vocabularies hold about 260,000 tokens (plus their merges),
// and 65,536 tensors with their keys name in a few MB.
constexpr std::uint64_t kMaxStringValues = 1 << 24;    // string values in all arrays together
constexpr std::uint64_t kMaxNameTotal = 16ull << 20;   // bytes of metadata keys and tensor names together

// The header's budgets, spent as it is read.
struct Budget {
  std::uint64_t string_values = 0;
  std::uint64_t name_bytes = 0;
};

enum ValueType : std::uint32_t { U8, I8, U16, I16, U32, I32, F32, BOOL, STRING, ARRAY, U64, I64, F64 };

const char* type_name(std::uint32_t t) {
  static const char* names[] = {"uint8", "int8", "uint16", "int16", "uint32", "int32", "float32",
                                "bool", "string", "array", "uint64", "int64", "float64"};
  return t <= F64 ? names[t] : "unknown";
}

std::uint64_t scalar_size(std::uint32_t t) {
  switch (t) {
    case U8: case I8: case BOOL: return 1;
    case U16: case I16: return 2;
    case U32: case I32: case F32: return 4;
    case U64: case I64: case F64: return 8;
    default: return 0;
  }
}

// Kept text is valid UTF-8 (invalid bytes become U+FFFD): tokenizers store
// byte tokens, and a stranger's file may store anything.
std::string kept(std::string s) {
  s = valid_utf8(s);
  if (s.size() <= kKeptString) return s;
  std::size_t cut = kKeptString;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;  // not inside a UTF-8 sequence
  return s.substr(0, cut) + "…";
}

// A key or a tensor name, read whole, its bytes spent from the header's budget.
std::string name_string(Cursor& c, Budget& b, std::uint64_t max, const std::string& what) {
  std::uint64_t at = c.offset();
  std::uint64_t n = c.u64(what + " length");
  if (n <= max && n > kMaxNameTotal - b.name_bytes)
    c.fail_at(at, fmt::format("metadata keys and tensor names pass {} MiB together; qsel reads at most that much of a header", kMaxNameTotal >> 20));
  b.name_bytes += std::min(n, max);
  return c.bytes(n, max, what);
}

json scalar(Cursor& c, std::uint32_t t, const std::string& what) {
  switch (t) {
    case U8: return c.u8(what);
    case I8: return static_cast<std::int8_t>(c.u8(what));
    case U16: { std::uint32_t lo = c.u8(what), hi = c.u8(what); return static_cast<std::uint16_t>(lo | hi << 8); }
    case I16: { std::uint32_t lo = c.u8(what), hi = c.u8(what); return static_cast<std::int16_t>(lo | hi << 8); }
    case U32: return c.u32(what);
    case I32: return static_cast<std::int32_t>(c.u32(what));
    case F32: { std::uint32_t b = c.u32(what); float f; std::memcpy(&f, &b, 4); return std::isfinite(f) ? json(f) : json(); }
    case BOOL: {
      std::uint64_t at = c.offset();
      std::uint8_t v = c.u8(what);
      if (v > 1) c.fail_at(at, fmt::format("{}: a bool is 0 or 1, got {}", what, v));
      return v == 1;
    }
    case U64: return c.u64(what);
    case I64: return static_cast<std::int64_t>(c.u64(what));
    case F64: { std::uint64_t b = c.u64(what); double d; std::memcpy(&d, &b, 8); return std::isfinite(d) ? json(d) : json(); }
    case STRING: {  // only the kept head is read (a whole UTF-8 sequence past the cut included); the rest is skipped
      std::uint64_t n = c.u64(what + " length");
      return kept(c.head(n, kKeptString + 4, kMaxStringBytes, what));
    }
    default: c.fail(fmt::format("{}: unknown value type {} (expected 0-12)", what, t));
  }
}

json value(Cursor& c, Budget& b, std::uint32_t t, const std::string& key) {
  if (t != ARRAY) return scalar(c, t, key);
  std::uint64_t at = c.offset();
  std::uint32_t et = c.u32(key + " array type");
  if (et == ARRAY) c.fail_at(at, fmt::format("{}: an array of arrays (not supported by llama.cpp's reader)", key));
  if (et > F64) c.fail_at(at, fmt::format("{}: unknown array element type {} (expected 0-12)", key, et));
  std::uint64_t n_at = c.offset();
  std::uint64_t n = c.u64(key + " array length");
  std::uint64_t min = et == STRING ? 8 : scalar_size(et);  // bytes per element at least
  if (n > c.left() / min) c.fail(fmt::format("{}: array of {} {} values cannot fit in the {} bytes left", key, n, type_name(et), c.left()));
  if (et == STRING) {  // each string's length is read to find the next one: the count is the cost
    if (n > kMaxStringValues - b.string_values)
      c.fail_at(n_at, fmt::format("{}: array of {} strings; qsel reads at most {} string values per GGUF header (the largest vocabularies hold "
                         "about 260,000 tokens)", key, n, kMaxStringValues));
    b.string_values += n;
  }
  json head = json::array();
  for (std::uint64_t i = 0; i < n; ++i) {
    if (i < kKeptArray) {
      head.push_back(scalar(c, et, key));
    } else if (et == STRING) {
      c.skip(c.u64(key + " string length"), key + " string");
    } else {
      c.skip((n - i) * min, key + " values");
      break;
    }
  }
  return {{"type", type_name(et)}, {"length", n}, {"head", head}};
}

void read_tensor(Cursor& c, Budget& b, std::unordered_set<std::string>& names, GgufFile& g) {
  GgufTensor t;
  std::uint64_t at = c.offset();
  t.name = valid_utf8(name_string(c, b, kMaxNameBytes, "tensor name"));
  std::uint32_t n_dims = c.u32("tensor dimension count");
  if (n_dims < 1 || n_dims > 4) c.fail(fmt::format("tensor \"{}\": {} dimensions (ggml tensors have 1 to 4)", t.name, n_dims));
  std::uint64_t dims_at = c.offset();
  for (std::uint32_t i = 0; i < n_dims; ++i) {
    std::uint64_t d = c.u64("tensor dimension");
    if (d == 0) c.fail(fmt::format("tensor \"{}\": dimension {} is 0, not a plausible size", t.name, i));
    t.dims.push_back(d);
  }
  auto elements = checked_product(t.dims, kMaxTensorElements);
  if (!elements)
    c.fail_at(dims_at, fmt::format("tensor \"{}\": dimensions [{}] hold more than 2^50 elements, not a plausible tensor", t.name,
                                   fmt::join(t.dims, ", ")));
  t.elements = *elements;
  std::uint64_t type_at = c.offset();
  std::uint32_t type_id = c.u32("tensor type");
  t.type = ggml_type_by_id(type_id);
  if (!t.type) c.fail_at(type_at, fmt::format("tensor \"{}\": unknown ggml type {}", t.name, type_id));
  if (t.dims[0] % static_cast<std::uint64_t>(t.type->block_elements) != 0)
    c.fail_at(type_at, fmt::format("tensor \"{}\": {} elements per row is not a multiple of the {} block ({})", t.name, t.dims[0],
                                   t.type->name, t.type->block_elements));
  auto bytes = checked_mul(t.elements / static_cast<std::uint64_t>(t.type->block_elements), static_cast<std::uint64_t>(t.type->block_bytes));
  if (!bytes) c.fail_at(type_at, fmt::format("tensor \"{}\": {} elements of {} need more bytes than 64 bits count", t.name, t.elements, t.type->name));
  t.bytes = *bytes;
  t.offset = c.u64("tensor data offset");
  if (t.offset % g.alignment != 0)
    c.fail(fmt::format("tensor \"{}\": data offset {} is not a multiple of the alignment {}", t.name, t.offset, g.alignment));
  if (!names.insert(t.name).second) c.fail_at(at, fmt::format("tensor \"{}\" is listed twice", t.name));
  g.tensors.push_back(std::move(t));
}

// Tensors must lie inside the data section without overlapping one another.
void check_layout(const Cursor& c, const GgufFile& g) {
  std::vector<const GgufTensor*> by_offset;
  for (const auto& t : g.tensors) by_offset.push_back(&t);
  std::sort(by_offset.begin(), by_offset.end(), [](auto* a, auto* b) { return a->offset < b->offset; });
  std::uint64_t data = g.file_size > g.data_offset ? g.file_size - g.data_offset : 0;
  for (std::size_t i = 0; i < by_offset.size(); ++i) {
    const GgufTensor& t = *by_offset[i];
    if (t.offset > data || t.bytes > data - t.offset)
      c.fail_at(g.data_offset + std::min(t.offset, data),
                fmt::format("tensor \"{}\" ({} bytes at data offset {}) runs past the end of the file", t.name, t.bytes, t.offset));
    if (i + 1 < by_offset.size() && t.offset + t.bytes > by_offset[i + 1]->offset)
      c.fail_at(g.data_offset + by_offset[i + 1]->offset,
                fmt::format("tensors \"{}\" and \"{}\" overlap", t.name, by_offset[i + 1]->name));
  }
}

}  // namespace

const nlohmann::json* GgufFile::find(const std::string& key) const {
  auto it = metadata.find(key);
  return it == metadata.end() ? nullptr : &*it;
}

long long GgufFile::integer(const std::string& key, long long fallback) const {
  const auto* v = find(key);
  return v && v->is_number_integer() ? v->get<long long>() : fallback;
}

std::string GgufFile::string(const std::string& key) const {
  const auto* v = find(key);
  return v && v->is_string() ? v->get<std::string>() : "";
}

GgufFile read_gguf(const std::string& path) {
  BinaryFile f(path);
  return read_gguf(f);
}

GgufFile read_gguf(const ByteSource& f) {
  Cursor c(f);
  GgufFile g;
  g.path = f.path();
  g.file_size = f.size();
  std::uint32_t magic = c.u32("the GGUF magic");
  if (magic != kMagic) c.fail_at(0, "not a GGUF file (expected the magic bytes \"GGUF\")");
  std::uint64_t version_at = c.offset();
  g.version = c.u32("the GGUF version");
  if (g.version == 0x03000000 || g.version == 0x02000000) c.fail_at(version_at, "a big-endian GGUF file (only little-endian is read)");
  if (g.version < 2 || g.version > 3) c.fail_at(version_at, fmt::format("GGUF version {} (versions 2 and 3 are read)", g.version));
  std::uint64_t tensors_at = c.offset();
  std::uint64_t n_tensors = c.u64("the tensor count");
  if (n_tensors > kMaxGgufTensors) c.fail_at(tensors_at, fmt::format("tensor count {} is not plausible (at most {})", n_tensors, kMaxGgufTensors));
  std::uint64_t keys_at = c.offset();
  std::uint64_t n_keys = c.u64("the metadata key count");
  if (n_keys > kMaxKeys) c.fail_at(keys_at, fmt::format("metadata key count {} is not plausible (at most {})", n_keys, kMaxKeys));
  g.metadata = json::object();
  Budget budget;
  for (std::uint64_t i = 0; i < n_keys; ++i) {
    std::uint64_t at = c.offset();
    std::string key = valid_utf8(name_string(c, budget, kMaxKeyBytes, "metadata key"));
    if (g.metadata.contains(key)) c.fail_at(at, fmt::format("metadata key \"{}\" appears twice", kept(key)));
    std::uint32_t t = c.u32("metadata value type");
    g.metadata[key] = value(c, budget, t, key);
  }
  if (const auto* a = g.find("general.alignment")) {
    long long al = a->is_number_integer() ? a->get<long long>() : 0;
    if (al < 1 || al > (1 << 20) || (al & (al - 1)) != 0)
      c.fail(fmt::format("general.alignment {} is not a power of two up to 1 MiB", a->dump()));
    g.alignment = static_cast<std::uint32_t>(al);
  }
  if (n_tensors > c.left() / 24) c.fail_at(tensors_at, fmt::format("tensor count {} cannot fit in the {} bytes left", n_tensors, c.left()));
  std::unordered_set<std::string> names;
  for (std::uint64_t i = 0; i < n_tensors; ++i) read_tensor(c, budget, names, g);
  std::uint64_t end = c.offset();
  g.data_offset = (end + g.alignment - 1) / g.alignment * g.alignment;
  check_layout(c, g);
  return g;
}

}  // namespace qsel
