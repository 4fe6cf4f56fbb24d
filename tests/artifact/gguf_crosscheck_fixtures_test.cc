// Not run by default ([.crosscheck] is hidden): writes GGUF files for the
// cross-check against an independent reader (tests/crosscheck/run.sh, which
// compares qsel inspect with the @huggingface/gguf package) into the folder
// named by QSEL_CROSSCHECK_OUT.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>

#include <filesystem>

#include "support/artifact_writer.h"
#include "support/fixtures.h"

TEST_CASE("gguf crosscheck fixtures: a spread of types, metadata and alignments", "[.crosscheck]") {
  const char* out = std::getenv("QSEL_CROSSCHECK_OUT");
  REQUIRE(out);
  std::filesystem::create_directories(out);
  auto write = [&](const std::string& name, const qsel::test::GgufWriter& w) {
    std::ofstream(std::filesystem::path(out) / name, std::ios::binary) << w.bytes();
  };
  {
    qsel::test::GgufWriter w;  // a llama-shaped Q4_K_M mixture
    w.str("general.architecture", "llama");
    w.str("general.name", "crosscheck q4km");
    w.u32("general.file_type", 15);
    w.u32("general.quantization_version", 2);
    w.u32("llama.block_count", 2);
    w.u32("llama.embedding_length", 256);
    w.u32("llama.attention.head_count", 4);
    w.u32("llama.attention.head_count_kv", 2);
    w.f32("llama.rope.freq_base", 500000.0f);
    w.boolean("tokenizer.ggml.add_bos_token", true);
    w.str_array("tokenizer.ggml.tokens", std::vector<std::string>(300, "tok"));
    w.i32_array("tokenizer.ggml.token_type", std::vector<std::int32_t>(300, 1));
    w.tensor("token_embd.weight", {256, 300}, 8, 32, 34);  // Q8_0
    for (int l = 0; l < 2; ++l) {
      std::string p = "blk." + std::to_string(l) + ".";
      w.tensor(p + "attn_norm.weight", {256}, 0, 1, 4);
      w.tensor(p + "attn_q.weight", {256, 256}, 12, 256, 144);
      w.tensor(p + "attn_k.weight", {256, 128}, 12, 256, 144);
      w.tensor(p + "attn_v.weight", {256, 128}, 14, 256, 210);
      w.tensor(p + "ffn_up.weight", {256, 512}, 23, 256, 136);   // IQ4_XS
      w.tensor(p + "ffn_down.weight", {512, 256}, 14, 256, 210);
    }
    w.tensor("output.weight", {256, 300}, 14, 256, 210);
    write("mixture.gguf", w);
  }
  {
    qsel::test::GgufWriter w;  // 16-bit types, Q4_0, MXFP4, a wider alignment
    w.alignment = 64;
    w.u32("general.alignment", 64);
    w.str("general.architecture", "gpt-oss");
    w.u64("general.big", 1ull << 40);
    w.tensor("a.f16", {64, 3}, 1, 1, 2);
    w.tensor("b.bf16", {64, 5}, 30, 1, 2);
    w.tensor("c.q4_0", {64, 2}, 2, 32, 18);
    w.tensor("d.mxfp4", {64, 4, 2}, 39, 32, 17);
    w.tensor("e.f32", {7}, 0, 1, 4);
    write("types.gguf", w);
  }
  // Safetensors headers for the fuzz seeds (scripts/fuzz.sh): an AWQ layer and an unknown dtype.
  nlohmann::json awq = nlohmann::json::array(
      {{{"name", "l.qweight"}, {"dtype", "I32"}, {"shape", {64, 8}}, {"bytes", 64 * 8 * 4}},
       {{"name", "l.qzeros"}, {"dtype", "I32"}, {"shape", {2, 8}}, {"bytes", 2 * 8 * 4}},
       {{"name", "l.scales"}, {"dtype", "F16"}, {"shape", {2, 64}}, {"bytes", 2 * 64 * 2}},
       {{"name", "model.embed_tokens.weight"}, {"dtype", "BF16"}, {"shape", {100, 64}}, {"bytes", 100 * 64 * 2}}});
  std::ofstream(std::filesystem::path(out) / "awq.safetensors", std::ios::binary) << qsel::test::safetensors_bytes(awq, {{"format", "pt"}});
}
