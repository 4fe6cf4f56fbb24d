// Tiny checkpoints for the inspect tests, laid out the way each producer
// writes them (tensor names, dtypes and shapes per format: AutoAWQ, the
// compressed-tensors and ModelOpt exporters, DeepSeek's block FP8, gpt-oss
// MXFP4, bitsandbytes). Sizes are chosen so every expected value is exact.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "support/artifact_writer.h"
#include "support/fixtures.h"

namespace qsel::test {

// A llama-shaped config.json: hidden 512, 2 layers, 8 heads (4 KV), MLP 1024, vocab 1000.
inline nlohmann::json tiny_config(const nlohmann::json& quantization = nullptr) {
  nlohmann::json c = {{"architectures", {"LlamaForCausalLM"}}, {"model_type", "llama"}, {"hidden_size", 512},
                      {"num_hidden_layers", 2}, {"num_attention_heads", 8}, {"num_key_value_heads", 4},
                      {"intermediate_size", 1024}, {"vocab_size", 1000}, {"tie_word_embeddings", false}};
  if (!quantization.is_null()) c["quantization_config"] = quantization;
  return c;
}

// The linear layers of that model: (name, in, out).
inline std::vector<std::tuple<std::string, int, int>> tiny_linears() {
  std::vector<std::tuple<std::string, int, int>> out;
  for (int l = 0; l < 2; ++l) {
    std::string p = "model.layers." + std::to_string(l) + ".";
    for (auto [n, i, o] : std::vector<std::tuple<const char*, int, int>>{{"self_attn.q_proj", 512, 512}, {"self_attn.k_proj", 512, 256},
                                                                         {"self_attn.v_proj", 512, 256}, {"self_attn.o_proj", 512, 512},
                                                                         {"mlp.gate_proj", 512, 1024}, {"mlp.up_proj", 512, 1024},
                                                                         {"mlp.down_proj", 1024, 512}})
      out.emplace_back(p + n, i, o);
  }
  return out;
}

constexpr double kTinyLinearParams = 2.0 * (512 * 512 * 2 + 512 * 256 * 2 + 512 * 1024 * 2 + 1024 * 512);  // 4,718,592
constexpr double kTinyOtherParams = 1000.0 * 512 * 2 + 512 * 5;                                              // embed, lm_head, 5 norms

// The unquantized tensors every tiny checkpoint keeps, in `dtype` (2 bytes per value).
inline void tiny_unquantized(nlohmann::json& e, const std::string& dtype) {
  e.push_back({{"name", "model.embed_tokens.weight"}, {"dtype", dtype}, {"shape", {1000, 512}}, {"bytes", 1000 * 512 * 2}});
  e.push_back({{"name", "lm_head.weight"}, {"dtype", dtype}, {"shape", {1000, 512}}, {"bytes", 1000 * 512 * 2}});
  e.push_back({{"name", "model.norm.weight"}, {"dtype", dtype}, {"shape", {512}}, {"bytes", 512 * 2}});
  for (int l = 0; l < 2; ++l)
    for (const char* n : {"input_layernorm", "post_attention_layernorm"})
      e.push_back({{"name", "model.layers." + std::to_string(l) + "." + n + ".weight"}, {"dtype", dtype}, {"shape", {512}}, {"bytes", 512 * 2}});
}

// AutoAWQ GEMM layout, 4-bit, group 128: qweight I32 [in, out/8], qzeros I32 [in/128, out/8], scales F16 [in/128, out].
inline nlohmann::json awq_tensors() {
  nlohmann::json e = nlohmann::json::array();
  for (auto [n, i, o] : tiny_linears()) {
    e.push_back({{"name", n + ".qweight"}, {"dtype", "I32"}, {"shape", {i, o / 8}}, {"bytes", i * o / 8 * 4}});
    e.push_back({{"name", n + ".qzeros"}, {"dtype", "I32"}, {"shape", {i / 128, o / 8}}, {"bytes", i / 128 * o / 8 * 4}});
    e.push_back({{"name", n + ".scales"}, {"dtype", "F16"}, {"shape", {i / 128, o}}, {"bytes", i / 128 * o * 2}});
  }
  tiny_unquantized(e, "F16");
  return e;
}

// A folder with config.json (and the quantization config inside it) and one safetensors file.
inline std::string write_checkpoint(const TempDir& d, const std::string& name, const nlohmann::json& config, const nlohmann::json& tensors) {
  d.write(name + "/config.json", config.dump(2));
  d.write(name + "/model.safetensors", safetensors_bytes(tensors));
  return (d.path() / name).string();
}

}  // namespace qsel::test
