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

std::string encode_corpus(const Corpus& corpus, const std::map<std::string, nlohmann::json>& schemas);

struct DecodedBlob {
  Corpus corpus;
  std::map<std::string, nlohmann::json> schemas;
};
DecodedBlob decode_corpus(std::string_view blob);

// The blob compiled into this binary, and its decoded corpus (decoded once).
std::string_view embedded_blob();
const DecodedBlob& embedded();

}  // namespace qsel
