// The precompiled form of a corpus: the validated records, their marks and the
// schemas, as MessagePack. The build runs the loader over data/ (failing on any
// problem) and embeds this blob, so start-up decodes instead of parsing YAML.
#pragma once
#include <map>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "qsel/loader/loader.h"

namespace qsel {

// `docs`: product documents carried with the corpus (the selection rules' pages, by rule id).
std::string encode_corpus(const Corpus& corpus, const std::map<std::string, nlohmann::json>& schemas,
                          const std::map<std::string, std::string>& docs = {});

struct DecodedBlob {
  Corpus corpus;
  std::map<std::string, nlohmann::json> schemas;
  std::map<std::string, std::string> docs;
};
DecodedBlob decode_corpus(std::string_view blob, bool with_schemas = true);
// Only the schemas: what a corpus read from disk needs, without keeping the
// embedded records in memory beside it.
std::map<std::string, nlohmann::json> decode_schemas(std::string_view blob);

// The blob compiled into this binary, and its decoded corpus (decoded once).
std::string_view embedded_blob();
const DecodedBlob& embedded();
const std::map<std::string, nlohmann::json>& embedded_schemas();

}  // namespace qsel
