#include <catch2/catch.hpp>

#include <string>

#include "qsel/model/shape_limits.h"

using namespace qsel;

TEST_CASE("shape_limits: config.json keys and llama.cpp's GGUF keys share one range", "[model][shape_limits]") {
  CHECK(std::string(config_key_of_gguf("block_count")) == "num_hidden_layers");
  CHECK(std::string(config_key_of_gguf("rope.dimension_count")) == "qk_rope_head_dim");
  CHECK(std::string(config_key_of_gguf("expert_used_count")) == "num_experts_per_tok");
  CHECK(config_key_of_gguf("general.name") == nullptr);
  CHECK(shape_limit("num_hidden_layers").max == 10000);
  CHECK(shape_limit("qk_rope_head_dim").min == 1);
  CHECK(shape_limit("num_local_experts").min == 0);
  // every GGUF pairing names a key the table bounds (a typo would fall to the 0..2^30 default)
  for (const char* g : {"block_count", "embedding_length", "feed_forward_length", "expert_feed_forward_length", "attention.head_count",
                        "attention.head_count_kv", "attention.key_length", "attention.value_length", "vocab_size", "expert_count",
                        "expert_used_count", "expert_shared_count", "leading_dense_block_count", "attention.kv_lora_rank",
                        "attention.q_lora_rank", "rope.dimension_count", "attention.sliding_window", "context_length"}) {
    INFO(g);
    REQUIRE(config_key_of_gguf(g) != nullptr);
    CHECK(std::string(shape_limit(config_key_of_gguf(g)).key) == config_key_of_gguf(g));
  }
  CHECK(std::string(shape_limit("not_a_key").key).empty());
}
