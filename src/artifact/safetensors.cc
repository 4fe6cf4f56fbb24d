#include "qsel/artifact/safetensors.h"

#include <algorithm>
#include <cmath>
#include <unordered_set>

#include <fmt/format.h>

#include "qsel/artifact/binary_file.h"
#include "qsel/core/checked.h"
#include "qsel/core/errors.h"
#include "qsel/core/text.h"

namespace qsel {
using nlohmann::json;
namespace {

constexpr std::uint64_t kMaxHeader = 100000000;  // the safetensors crate's MAX_HEADER_SIZE
constexpr std::size_t kMaxSafetensorsEntries = 200000;
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

namespace {

// The header's JSON read as events, straight into tensors: the whole document is
// never built as a tree (a 100 MB header took 3.2 GB as nlohmann::json; this
// keeps the header text and one small record per tensor).
class HeaderReader : public nlohmann::json_sax<json> {
 public:
  // One top-level entry as read; checked once the whole header has parsed.
  struct Entry {
    std::string name;
    bool object = false, has_dtype = false, has_shape = false, shape_ok = true;
    std::string dtype;
    std::vector<json> shape, offsets;  // scalars as given (a count, or what stood there)
    bool has_offsets = false;
  };

  HeaderReader(const Cursor& c, SafetensorsFile& s) : c_(c), s_(s) {}
  std::vector<Entry> entries;

  bool null() override { return scalar(json()); }
  bool boolean(bool v) override { return scalar(v); }
  bool number_integer(number_integer_t v) override { return scalar(v); }
  bool number_unsigned(number_unsigned_t v) override { return scalar(v); }
  bool number_float(number_float_t v, const string_t&) override {
    if (!std::isfinite(v)) c_.fail_at(8, "the header holds a number beyond the double range");
    return scalar(v);
  }
  bool string(string_t& v) override { return scalar(json(std::move(v))); }
  bool binary(binary_t&) override { return scalar(json()); }
  bool start_object(std::size_t) override { return open(true); }
  bool start_array(std::size_t) override { return open(false); }
  bool end_object() override { return close(); }
  bool end_array() override { return close(); }
  bool key(string_t& k) override {
    if (depth_ == 1) {
      if (++top_keys_ > kMaxSafetensorsEntries) c_.fail_at(8, fmt::format("more than {} entries; at most {} tensors per file are read", kMaxSafetensorsEntries, kMaxSafetensorsEntries));
      if (!seen_.insert(k).second) c_.fail_at(8, fmt::format("tensor {} is listed twice", quote_value(k)));
      top_key_ = std::move(k);
    } else if (depth_ == 2) {
      field_ = std::move(k);
    }
    return true;
  }
  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& ex) override {
    if (ex.id == 406) c_.fail_at(8, "the header holds a number beyond the double range");  // out_of_range.406: 1e400
    c_.fail_at(8 + (position > 0 ? position - 1 : 0), "the header is not valid JSON");
  }

 private:
  bool metadata() const { return top_key_ == "__metadata__"; }

  // A value at `depth_ + 1`: a tensor's field, a shape or offset element, or a metadata string.
  bool scalar(json v) {
    if (depth_ == 0) c_.fail_at(8, "the header must be a JSON object");
    if (depth_ == 1) {
      if (metadata()) c_.fail_at(8, "__metadata__ must be an object of strings");
      entries.push_back({top_key_});
    } else if (depth_ == 2 && metadata()) {
      if (!v.is_string()) c_.fail_at(8, fmt::format("__metadata__ {} must be a string", quote_value(field_)));
      if (s_.metadata.size() >= kMaxSafetensorsEntries) c_.fail_at(8, fmt::format("__metadata__ holds more than {} entries", kMaxSafetensorsEntries));
      s_.metadata[field_] = std::move(v);
    } else if (depth_ == 2) {
      Entry& e = entries.back();
      if (field_ == "dtype" && v.is_string()) e.has_dtype = true, e.dtype = v.get<std::string>();
    } else if (depth_ == 3 && !metadata()) {
      Entry& e = entries.back();
      if (field_ == "shape" && e.shape.size() <= 8) e.shape.push_back(std::move(v));
      if (field_ == "data_offsets" && e.offsets.size() <= 2) e.offsets.push_back(std::move(v));
    }
    return true;
  }

  bool open(bool object) {
    if (depth_ == 0 && !object) c_.fail_at(8, "the header must be a JSON object");
    if (depth_ == 1) {
      if (metadata()) {
        if (!object) c_.fail_at(8, "__metadata__ must be an object of strings");
        if (!s_.metadata.is_null()) c_.fail_at(8, "__metadata__ is listed twice");
        s_.metadata = json::object();
      } else {
        entries.push_back({top_key_});
        entries.back().object = object;
      }
    } else if (depth_ == 2 && metadata()) {
      c_.fail_at(8, fmt::format("__metadata__ {} must be a string", quote_value(field_)));
    } else if (depth_ == 2 && entries.back().object) {
      Entry& e = entries.back();
      if (field_ == "shape" && !object) e.has_shape = true;
      if (field_ == "data_offsets" && !object) e.has_offsets = true;
    } else if (depth_ == 3 && field_ == "shape") {
      entries.back().shape_ok = false;  // a list or an object where a count belongs
    } else if (depth_ == 3 && field_ == "data_offsets") {
      entries.back().offsets.push_back(json("[...]"));  // not a count: reported as an offset outside the data
    }
    ++depth_;
    return true;
  }

  bool close() {
    --depth_;
    return true;
  }

  const Cursor& c_;
  SafetensorsFile& s_;
  int depth_ = 0;
  std::size_t top_keys_ = 0;
  std::string top_key_, field_;
  std::unordered_set<std::string> seen_;
};

}  // namespace

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
  HeaderReader reader(c, s);
  json::sax_parse(header, &reader);
  header = std::string();
  // Checked in name order, as a JSON object lists them, so the first problem named does not
  // depend on the order the writer chose.
  std::sort(reader.entries.begin(), reader.entries.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  const std::uint64_t data = s.file_size - 8 - s.header_size;
  auto bad = [&](const std::string& name, const std::string& what) {
    c.fail_at(8, fmt::format("tensor {}: {}", quote_value(name), what));
  };
  for (auto& e : reader.entries) {
    if (!e.object || !e.has_dtype || !e.has_shape || !e.has_offsets || e.offsets.size() != 2)
      bad(e.name, "expected {\"dtype\": string, \"shape\": [ints], \"data_offsets\": [begin, end]}");
    StTensor t;
    t.name = std::move(e.name);
    t.dtype = std::move(e.dtype);
    if (t.dtype.empty() || t.dtype.size() > 16) bad(t.name, "dtype is not a safetensors dtype name");
    if (e.shape.size() > 8) bad(t.name, "more than 8 dimensions");
    for (const auto& d : e.shape) t.shape.push_back(count(d));
    auto elements = checked_product(t.shape, kMaxTensorElements);
    if (!e.shape_ok || !elements) bad(t.name, "shape is not a list of plausible sizes");
    t.elements = *elements;
    t.begin = count(e.offsets[0]);
    t.end = count(e.offsets[1]);
    if (t.begin > t.end || t.end > data)
      bad(t.name, fmt::format("data_offsets [{}, {}] are outside the {} bytes of data", e.offsets[0].dump(), e.offsets[1].dump(), data));
    if (int bits = safetensors_dtype_bits(t.dtype); bits > 0) {
      auto want = checked_packed_bytes(t.elements, static_cast<std::uint64_t>(bits));
      if (!want || t.bytes() != *want)
        bad(t.name, fmt::format("{} bytes for {} {} values ({} expected)", t.bytes(), t.elements, t.dtype, want ? fmt::to_string(*want) : "more than 2^64"));
    } else {
      s.notes.push_back(fmt::format("tensor \"{}\" has dtype {}, which qsel does not know; its size is taken from its offsets", t.name, t.dtype));
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
