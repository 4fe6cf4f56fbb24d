#include <catch2/catch.hpp>

#include "qsel/core/errors.h"
#include "qsel/model/model_spec.h"
#include "support/fixtures.h"

using namespace qsel;

TEST_CASE("model_config: a Llama-style config.json gives the architecture and a derived parameter count", "[rules][model]") {
  qsel::test::TempDir dir;
  auto p = dir.write("config.json", R"({"num_hidden_layers": 32, "hidden_size": 4096, "num_attention_heads": 32,
    "num_key_value_heads": 8, "vocab_size": 128256, "intermediate_size": 14336, "tie_word_embeddings": false})");
  ModelSpec m = model_from_config(p.string());
  CHECK(m.layers == 32);
  CHECK(m.kv_heads == 8);
  CHECK(m.head_dim == 128);
  CHECK(m.attention == "gqa");
  CHECK(m.params_b == Approx(8.03).epsilon(0.01));  // Llama-3.1-8B: 8.03B
}

TEST_CASE("model_config: MoE, MLA and sliding-window configs", "[rules][model]") {
  qsel::test::TempDir dir;
  auto moe = dir.write("moe.json", R"({"num_hidden_layers": 32, "hidden_size": 4096, "num_attention_heads": 32,
    "num_key_value_heads": 8, "vocab_size": 32000, "intermediate_size": 14336, "num_local_experts": 8, "num_experts_per_tok": 2})");
  ModelSpec m = model_from_config(moe.string());
  CHECK(m.experts == 8);
  CHECK(m.params_b == Approx(46.7).epsilon(0.01));  // Mixtral-8x7B: 46.7B
  CHECK(m.active_params_b == Approx(12.9).epsilon(0.02));
  auto sw = dir.write("sw.json", R"({"num_hidden_layers": 4, "hidden_size": 64, "num_attention_heads": 4, "vocab_size": 10,
    "sliding_window": 128, "layer_types": ["sliding_attention", "full_attention", "sliding_attention", "full_attention"]})");
  ModelSpec s = model_from_config(sw.string());
  CHECK(s.window == 128);
  CHECK(s.sliding_layers == 2);
  CHECK(s.attention == "hybrid");
  auto mla = dir.write("mla.json", R"({"num_hidden_layers": 2, "hidden_size": 64, "num_attention_heads": 4, "vocab_size": 10,
    "kv_lora_rank": 512, "qk_rope_head_dim": 64})");
  CHECK(model_from_config(mla.string()).attention == "mla");
}

TEST_CASE("model_config: bad files are located usage errors", "[rules][model]") {
  qsel::test::TempDir dir;
  auto broken = dir.write("broken.json", "{\n  \"num_hidden_layers\": 32,\n  oops\n}\n");
  CHECK_THROWS_WITH(model_from_config(broken.string()),
                    Catch::StartsWith(broken.string() + ":3:3: invalid JSON:"));
  auto missing = dir.write("missing.json", R"({"hidden_size": 64})");
  CHECK_THROWS_WITH(model_from_config(missing.string()), missing.string() + ": missing \"num_hidden_layers\" (a positive integer)");
  auto wrong = dir.write("wrong.json", "{\"num_hidden_layers\": \"x\", \"hidden_size\": 1}");
  CHECK_THROWS_WITH(model_from_config(wrong.string()),
                    wrong.string() + ":1:2: \"num_hidden_layers\" must be an integer from 1 to 10000, got \"x\"");
  CHECK_THROWS_WITH(model_from_config((dir.path() / "nope.json").string()), Catch::EndsWith("nope.json: cannot open: No such file or directory"));
  auto arr = dir.write("arr.json", "[1]");
  CHECK_THROWS_AS(model_from_config(arr.string()), UsageError);
}

// Issue 13's reproducers: numbers that used to be narrowed into nonsense (or a crash).
TEST_CASE("model_config: out-of-range and mistyped numbers are refused with the field and value", "[rules][model]") {
  qsel::test::TempDir dir;
  auto cfg = [&](const std::string& name, const std::string& extra) {
    return dir.write(name, "{\"num_hidden_layers\": 2, \"hidden_size\": 512, \"num_attention_heads\": 8, \"vocab_size\": 100" + extra + "}")
        .string();
  };
  auto heads = dir.write("heads.json", R"({"num_hidden_layers":2,"hidden_size":512,"num_attention_heads":4294967296,"vocab_size":100})");
  CHECK_THROWS_WITH(model_from_config(heads.string()),
                    heads.string() + ":1:42: \"num_attention_heads\" must be an integer from 1 to 65536, got \"4294967296\"");
  auto layers = dir.write("layers.json", R"({"num_hidden_layers":4294967297,"hidden_size":512,"num_attention_heads":8,"vocab_size":100})");
  CHECK_THROWS_WITH(model_from_config(layers.string()), Catch::Contains("\"num_hidden_layers\" must be an integer from 1 to 10000, got \"4294967297\""));
  CHECK_THROWS_WITH(model_from_config(cfg("mla.json", ", \"kv_lora_rank\": 16, \"qk_nope_head_dim\": \"x\"")),
                    Catch::Contains("\"qk_nope_head_dim\" must be an integer from 1 to 65536, got \"x\""));
  CHECK_THROWS_WITH(model_from_config(cfg("kv.json", ", \"num_key_value_heads\": 16")),
                    Catch::Contains("\"num_key_value_heads\" (16) is more than \"num_attention_heads\" (8)"));
  CHECK_THROWS_WITH(model_from_config(cfg("neg.json", ", \"sliding_window\": -4")), Catch::Contains("\"sliding_window\" must be an integer"));
  CHECK_THROWS_WITH(model_from_config(cfg("tie.json", ", \"tie_word_embeddings\": \"yes\"")),
                    Catch::Contains("\"tie_word_embeddings\" must be true or false, got \"\\\"yes\\\"\""));
  CHECK_THROWS_WITH(model_from_config(cfg("moe.json", ", \"num_local_experts\": 4, \"num_experts_per_tok\": 8")),
                    Catch::Contains("8 experts per token, but only 4 experts"));
  CHECK_NOTHROW(model_from_config(cfg("ok.json", ", \"head_dim\": 64.0")));  // an integral float is an integer
}

// Found by tests/fuzz/fuzz_config_json: a JSON number beyond the double range.
TEST_CASE("model_config: a number beyond the double range is a usage error (fuzz regression)", "[rules][model]") {
  qsel::test::TempDir dir;
  auto f = dir.write("overflow.json", R"({"num_hidden_layers": 3e404})");
  CHECK_THROWS_WITH(model_from_config(f.string()), f.string() + ": invalid JSON: number overflow parsing '3e404'");
}

TEST_CASE("model_config: an MLA head is qk_nope + qk_rope, not hidden / heads (examples/deepseek-r1)", "[rules][model]") {
  ModelSpec m = model_from_config(qsel::test::source_dir() + "/examples/deepseek-r1/config.json");
  CHECK(m.attention == "mla");
  CHECK(m.head_dim == 192);  // qk_nope_head_dim 128 + qk_rope_head_dim 64; hidden / heads would be 56
  CHECK(m.kv_lora_rank == 512);
}

// Issue 26: in-range values whose products passed int (UBSan at model_config.cc, hidden x (rank + rope)).
TEST_CASE("model_config: MLA at hidden 1048576 and KV rank 4096 is counted in double, no signed overflow", "[rules][model]") {
  std::string cfg = R"({"architectures": ["DeepseekV3ForCausalLM"], "model_type": "deepseek_v3", "hidden_size": 1048576,
    "num_hidden_layers": 2, "num_attention_heads": 128, "kv_lora_rank": 4096, "qk_rope_head_dim": 64, "qk_nope_head_dim": 128,
    "v_head_dim": 128, "q_lora_rank": 1536, "vocab_size": 1000, "intermediate_size": 8, "tie_word_embeddings": true})";
  ModelSpec m = model_from_config_text(cfg, "config.json");
  const double hidden = 1048576, heads = 128, q_lora = 1536, qdim = heads * (128 + 64);
  const double attention = hidden * q_lora + q_lora * qdim + hidden * (4096 + 64) + 4096 * heads * (128 + 128) + heads * 128 * hidden;
  const double mlp = 3 * hidden * 8, embedding = 1000 * hidden;
  CHECK(m.params_b == Approx((2 * (attention + mlp) + embedding) / 1e9));
}

TEST_CASE("model_config: a config whose auto_map names its own code needs the engine's trust-remote-code; a plain one does not", "[rules][model]") {
  qsel::test::TempDir dir;
  auto own = dir.write("own/config.json", R"({"num_hidden_layers": 4, "hidden_size": 256, "num_attention_heads": 4,
    "vocab_size": 1000, "intermediate_size": 512, "auto_map": {"AutoModelForCausalLM": "modeling_x.XForCausalLM"}})");
  CHECK(model_from_config(own.string()).remote_code.find("auto_map") != std::string::npos);
  auto plain = dir.write("plain/config.json", R"({"num_hidden_layers": 4, "hidden_size": 256, "num_attention_heads": 4,
    "vocab_size": 1000, "intermediate_size": 512, "auto_map": {}})");
  CHECK(model_from_config(plain.string()).remote_code.empty());
}

// A Gated DeltaNet hybrid's config.json (Qwen3.5-9B's text_config shape): the linear layers keep a recurrent state,
// not a KV cache; layer_types names them, else every full_attention_interval-th layer is full attention.
TEST_CASE("model_config: linear_* fields make a Gated DeltaNet hybrid: its linear layers hold no KV cache", "[rules][model]") {
  std::string cfg = R"({"architectures": ["Qwen3_5ForConditionalGeneration"], "text_config": {"num_hidden_layers": 32,
    "hidden_size": 4096, "num_attention_heads": 16, "num_key_value_heads": 4, "head_dim": 256, "vocab_size": 248320,
    "intermediate_size": 12288, "tie_word_embeddings": false, "full_attention_interval": 4, "linear_conv_kernel_dim": 4,
    "linear_key_head_dim": 128, "linear_num_key_heads": 16, "linear_num_value_heads": 32, "linear_value_head_dim": 128}})";
  ModelSpec m = model_from_config_text(cfg, "config.json");
  CHECK(m.attention == "hybrid");
  CHECK(m.linear.layers == 24);
  CHECK(m.kv_layers == 8);
  CHECK(m.linear.value_heads == 32);
  CHECK(m.linear.key_heads == 16);
  std::string typed = qsel::test::replace_once(cfg, R"("full_attention_interval": 4)",
                                               R"("layer_types": ["linear_attention", "full_attention", "full_attention", "linear_attention"])");
  CHECK(model_from_config_text(typed, "config.json").linear.layers == 2);
  CHECK_THROWS_WITH(model_from_config_text(qsel::test::replace_once(cfg, R"("linear_num_key_heads": 16)", R"("linear_num_key_heads": -1)"), "config.json"),
                    Catch::Contains("linear_num_key_heads"));
}
