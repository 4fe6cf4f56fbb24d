#include <catch2/catch.hpp>

#include "lint/lint_support.h"

using namespace qsel;
using namespace qsel::test;

namespace {

// A model record with the shape fields QS041 counts from.
std::string shaped(const std::string& id, const std::string& params, const std::string& shape) {
  std::string r = minimal_record("model", id, shape);
  r = replaced(r, "params_b: 1\nlayers: 2\nhidden_size: 8\nkv_heads: 1\nhead_dim: 4\nvocab_size: 10\n", "params_b: " + params + "\n");
  return r;
}

const std::string kInternlm3 =
    "layers: 48\nhidden_size: 4096\nintermediate_size: 10240\nheads: 32\nkv_heads: 2\nhead_dim: 128\nvocab_size: 128512\n"
    "tie_embeddings: false\n";

}  // namespace

TEST_CASE("QS041 param-count-mismatch fires on a nominal count, a dense shape and an MoE", "[lint][QS041]") {
  TempDir d;
  d.write("models/internlm3-8b.yaml", shaped("internlm3-8b", "8", kInternlm3));
  d.write("models/moe.yaml",
          shaped("moe", "21",
                 "layers: 28\nhidden_size: 2560\nintermediate_size: 12288\nheads: 20\nkv_heads: 4\nhead_dim: 128\nvocab_size: 103424\n"
                 "tie_embeddings: true\nmoe:\n  experts: 64\n  active_experts: 6\n  shared_experts: 2\n  expert_intermediate_size: 1536\n"
                 "  dense_layers: 1\n"));
  d.write("models/mla.yaml",
          replaced(shaped("mla", "1000",
                 "layers: 61\nhidden_size: 7168\nintermediate_size: 18432\nheads: 64\nkv_heads: 64\nhead_dim: 192\nvocab_size: 163840\n"
                 "tie_embeddings: false\nmla:\n  kv_lora_rank: 512\n  qk_rope_head_dim: 64\n  q_lora_rank: 1536\n  qk_nope_head_dim: 128\n"
                 "  v_head_dim: 128\nmoe:\n  experts: 384\n  active_experts: 8\n  shared_experts: 1\n  expert_intermediate_size: 2048\n"
                 "  dense_layers: 1\n"),
                   "attention: gqa", "attention: mla"));
  auto f = lint_code(d.path(), "QS041");
  REQUIRE(f.size() == 3);
  CHECK(where(f[0], d.path()) == "models/internlm3-8b.yaml:4:11: params_b 8 is 9.1% below the 8.80 B its shape fields count (embeddings "
                                 "1.05 B, attention 1.71 B, FFN 6.04 B): write the counted figure, or the checkpoint's own count");
  CHECK(where(f[1], d.path()) == "models/mla.yaml:4:11: params_b 1000 is 2.6% below the 1026.24 B its shape fields count (embeddings "
                                 "2.35 B, attention 6.17 B, FFN 1017.72 B): write the counted figure, or the checkpoint's own count");
  CHECK(where(f[2], d.path()) == "models/moe.yaml:4:11: params_b 21 is 3.8% below the 21.82 B its shape fields count (embeddings 0.26 "
                                 "B, attention 0.44 B, FFN 21.12 B): write the counted figure, or the checkpoint's own count");
}

TEST_CASE("QS041 param-count-mismatch is clean within 2%, with other weights, and where the shape cannot count", "[lint][QS041]") {
  TempDir d;
  d.write("models/internlm3-8b.yaml", shaped("internlm3-8b", "8.8", kInternlm3));
  // Without tie_embeddings the nearer count is taken (untied here: 70.55).
  d.write("models/l70.yaml", shaped("l70", "70.55",
                                    "layers: 80\nhidden_size: 8192\nintermediate_size: 28672\nheads: 64\nkv_heads: 8\nhead_dim: 128\n"
                                    "vocab_size: 128256\n"));
  // A vision tower the shape does not describe, in other_params_b.
  d.write("models/vl.yaml", shaped("vl", "4.3",
                                   "other_params_b: 0.42\nlayers: 34\nhidden_size: 2560\nintermediate_size: 10240\nheads: 8\nkv_heads: 4\n"
                                   "head_dim: 256\nvocab_size: 262208\ntie_embeddings: true\n"));
  // Hybrid (linear-attention) layers and an MoE without its expert width are not counted.
  d.write("models/hybrid.yaml", replaced(shaped("hybrid", "80", "layers: 48\nhidden_size: 2048\nheads: 16\nkv_heads: 2\nvocab_size: 151936\n"),
                                         "attention: gqa", "attention: hybrid"));
  d.write("models/moe.yaml", shaped("moe", "30.5", "layers: 48\nhidden_size: 2048\nheads: 32\nkv_heads: 4\nvocab_size: 151936\nmoe:\n"
                                                   "  experts: 128\n  active_experts: 8\n"));
  CHECK(lint_code(d.path(), "QS041").empty());
}
