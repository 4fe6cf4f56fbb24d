#include "qsel/loader/corpus_blob.h"

#include <stdexcept>

namespace qsel {

using nlohmann::json;

namespace {

// Marks travel as one packed string per record ("pointer\x1fline\x1fcolumn\x1e" …):
// thousands of tiny JSON arrays would dominate start-up.
constexpr char kField = '\x1f', kEntry = '\x1e';

// "pointer\x1fline\x1fcolumn\x1fkeyline\x1fkeycolumn\x1e", in pointer order.
std::string pack_marks(const Marks& m) {
  std::string out;
  m.for_each([&](std::string_view ptr, Mark value, Mark key) {
    out.append(ptr);
    for (int v : {value.line, value.column, key.line, key.column}) {
      out += kField;
      out += std::to_string(v);
    }
    out += kEntry;
  });
  return out;
}

int read_int(std::string_view s, std::size_t& i) {
  int v = 0;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9') v = v * 10 + (s[i++] - '0');
  return v;
}

void unpack_marks(std::string_view s, Marks& m) {
  std::size_t i = 0;
  while (i < s.size()) {
    std::size_t f = s.find(kField, i);
    if (f == std::string_view::npos) throw std::runtime_error("embedded corpus: corrupt marks");
    std::string_view ptr = s.substr(i, f - i);
    i = f + 1;
    int v[4] = {};
    for (int& x : v) {
      x = read_int(s, i);
      ++i;
    }
    if (v[0] > 0) m.set_value(ptr, {v[0], v[1]});
    if (v[2] > 0) m.set_key(ptr, {v[2], v[3]});
  }
  m.finish();
}

}  // namespace

std::string encode_corpus(const Corpus& corpus, const std::map<std::string, json>& schemas,
                          const std::map<std::string, std::string>& docs) {
  json recs = json::array();
  for (const auto& r : corpus.records)
    recs.push_back({{"file", r.file}, {"kind", kind_name(r.kind)}, {"data", r.data},
                    {"marks", pack_marks(r.marks)}});
  json texts = json::object();  // schemas as text: parsed only when a --data corpus needs them
  for (const auto& [k, s] : schemas) texts[k] = s.dump();
  json doc = {{"format", 4}, {"files", corpus.files}, {"digest", corpus.digest}, {"schemas", texts}, {"docs", docs}, {"records", recs}};
  auto bytes = json::to_msgpack(doc);
  return std::string(bytes.begin(), bytes.end());
}

std::map<std::string, json> decode_schemas(std::string_view blob) {
  json doc = json::from_msgpack(blob.begin(), blob.end());
  if (doc.value("format", 0) != 4) throw std::runtime_error("embedded corpus has an unknown format version");
  std::map<std::string, json> out;
  for (auto& [k, s] : doc["schemas"].items()) out[k] = json::parse(s.get_ref<const std::string&>());
  return out;
}

DecodedBlob decode_corpus(std::string_view blob, bool with_schemas) {
  json doc = json::from_msgpack(blob.begin(), blob.end());
  if (doc.value("format", 0) != 4) throw std::runtime_error("embedded corpus has an unknown format version");
  DecodedBlob out;
  out.corpus.origin = "embedded";
  out.corpus.files = doc["files"].get<std::size_t>();
  out.corpus.digest = doc["digest"].get<std::string>();
  if (with_schemas)
    for (auto& [k, s] : doc["schemas"].items()) out.schemas[k] = json::parse(s.get_ref<const std::string&>());
  if (doc.contains("docs"))
    for (auto& [k, s] : doc["docs"].items()) out.docs[k] = s.get<std::string>();
  out.corpus.records.reserve(doc["records"].size());
  for (auto& j : doc["records"]) {
    Record r;
    r.kind = *parse_kind(j["kind"].get<std::string>());
    r.file = j["file"].get<std::string>();
    r.data = std::move(j["data"]);
    unpack_marks(j["marks"].get_ref<const std::string&>(), r.marks);
    fill_common(r);
    out.corpus.records.push_back(std::move(r));
  }
  return out;
}

// Decoded once from the blob the binary links in (embedded_blob.cc).
const DecodedBlob& embedded() {
  static const DecodedBlob* decoded = new DecodedBlob(decode_corpus(embedded_blob()));  // lives until exit
  return *decoded;
}

const std::map<std::string, nlohmann::json>& embedded_schemas() {
  static const auto* schemas = new std::map<std::string, nlohmann::json>(decode_schemas(embedded_blob()));  // lives until exit
  return *schemas;
}

}  // namespace qsel
