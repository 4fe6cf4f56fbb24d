#include "qsel/loader/corpus_blob.h"

#include <stdexcept>

namespace qsel {

using nlohmann::json;

namespace {

json marks_to_json(const std::unordered_map<std::string, Mark>& m) {
  json out = json::array();
  for (const auto& [ptr, mark] : m) out.push_back({ptr, mark.line, mark.column});
  return out;
}

void marks_from_json(const json& j, std::unordered_map<std::string, Mark>& m) {
  m.reserve(j.size());
  for (const auto& e : j) m.emplace(e[0].get<std::string>(), Mark{e[1].get<int>(), e[2].get<int>()});
}

}  // namespace

std::string encode_corpus(const Corpus& corpus, const std::map<std::string, json>& schemas) {
  json recs = json::array();
  for (const auto& r : corpus.records)
    recs.push_back({{"file", r.file}, {"kind", kind_name(r.kind)}, {"data", r.data},
                    {"marks", marks_to_json(r.marks.value)}, {"keys", marks_to_json(r.marks.key)}});
  json doc = {{"format", 1}, {"files", corpus.files}, {"digest", corpus.digest}, {"schemas", schemas}, {"records", recs}};
  auto bytes = json::to_msgpack(doc);
  return std::string(bytes.begin(), bytes.end());
}

DecodedBlob decode_corpus(std::string_view blob) {
  json doc = json::from_msgpack(blob.begin(), blob.end());
  if (doc.value("format", 0) != 1) throw std::runtime_error("embedded corpus has an unknown format version");
  DecodedBlob out;
  out.corpus.origin = "embedded";
  out.corpus.files = doc["files"].get<std::size_t>();
  out.corpus.digest = doc["digest"].get<std::string>();
  for (auto& [k, s] : doc["schemas"].items()) out.schemas[k] = std::move(s);
  out.corpus.records.reserve(doc["records"].size());
  for (auto& j : doc["records"]) {
    Record r;
    r.kind = *parse_kind(j["kind"].get<std::string>());
    r.file = j["file"].get<std::string>();
    r.data = std::move(j["data"]);
    marks_from_json(j["marks"], r.marks.value);
    marks_from_json(j["keys"], r.marks.key);
    fill_common(r);
    out.corpus.records.push_back(std::move(r));
  }
  return out;
}

}  // namespace qsel
