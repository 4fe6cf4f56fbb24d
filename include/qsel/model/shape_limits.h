// What a model's shape values may be, wherever they are read: config.json's
// keys and the GGUF metadata llama.cpp writes for them (block_count is
// num_hidden_layers, expert_used_count is num_experts_per_tok, …) are checked
// against the same table, so a value one reader refuses the other refuses too.
#pragma once
#include <string_view>

namespace qsel {

struct ShapeLimit {
  const char* key;  // config.json's name for the value
  long min, max;
};

// The range for a config.json key; keys the table does not name get 0 to 2^30.
const ShapeLimit& shape_limit(std::string_view config_key);

// The config.json key a GGUF metadata key (without its "{arch}." prefix) holds
// the same value as, or nullptr when the table has no such pairing.
const char* config_key_of_gguf(std::string_view gguf_key);

}  // namespace qsel
