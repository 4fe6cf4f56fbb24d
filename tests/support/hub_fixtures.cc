#include "support/hub_fixtures.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "support/artifact_writer.h"
#include "support/checkpoints.h"

namespace qsel::test {
namespace {

using nlohmann::json;

// AutoAWQ GEMM tensors of one linear layer: qweight I32 [in, out/8], qzeros I32 [in/128, out/8], scales F16 [in/128, out].
void awq_linear(json& e, const std::string& name, std::uint64_t in, std::uint64_t out) {
  e.push_back({{"name", name + ".qweight"}, {"dtype", "I32"}, {"shape", {in, out / 8}}, {"bytes", in * out / 8 * 4}});
  e.push_back({{"name", name + ".qzeros"}, {"dtype", "I32"}, {"shape", {in / 128, out / 8}}, {"bytes", in / 128 * out / 8 * 4}});
  e.push_back({{"name", name + ".scales"}, {"dtype", "F16"}, {"shape", {in / 128, out}}, {"bytes", in / 128 * out * 2}});
}

}  // namespace

void serve_qwen3_32b_awq(HubServer& s) {
  s.add_repo(kAwqRepo, kAwqSha);
  json config = {{"architectures", {"Qwen3ForCausalLM"}}, {"model_type", "qwen3"}, {"hidden_size", 5120}, {"num_hidden_layers", 64},
                 {"num_attention_heads", 64}, {"num_key_value_heads", 8}, {"head_dim", 128}, {"intermediate_size", 25600},
                 {"vocab_size", 151936}, {"tie_word_embeddings", false}, {"max_position_embeddings", 40960},
                 {"quantization_config", {{"quant_method", "awq"}, {"bits", 4}, {"group_size", 128}, {"zero_point", true}, {"version", "gemm"}}}};
  s.add_file(kAwqRepo, "config.json", config.dump(2));
  s.add_file(kAwqRepo, "README.md", "# Qwen3-32B-AWQ\n");
  json shard[2] = {json::array(), json::array()};
  json index = {{"metadata", {{"total_size", 0}}}, {"weight_map", json::object()}};
  for (int l = 0; l < 64; ++l) {
    json& e = shard[l < 32 ? 0 : 1];
    std::string p = fmt::format("model.layers.{}.", l);
    awq_linear(e, p + "self_attn.q_proj", 5120, 8192);
    awq_linear(e, p + "self_attn.k_proj", 5120, 1024);
    awq_linear(e, p + "self_attn.v_proj", 5120, 1024);
    awq_linear(e, p + "self_attn.o_proj", 8192, 5120);
    awq_linear(e, p + "mlp.gate_proj", 5120, 25600);
    awq_linear(e, p + "mlp.up_proj", 5120, 25600);
    awq_linear(e, p + "mlp.down_proj", 25600, 5120);
    for (const char* n : {"input_layernorm", "post_attention_layernorm"})
      e.push_back({{"name", p + n + ".weight"}, {"dtype", "F16"}, {"shape", {5120}}, {"bytes", 5120 * 2}});
  }
  shard[0].push_back({{"name", "model.embed_tokens.weight"}, {"dtype", "F16"}, {"shape", {151936, 5120}}, {"bytes", 151936ull * 5120 * 2}});
  shard[1].push_back({{"name", "lm_head.weight"}, {"dtype", "F16"}, {"shape", {151936, 5120}}, {"bytes", 151936ull * 5120 * 2}});
  shard[1].push_back({{"name", "model.norm.weight"}, {"dtype", "F16"}, {"shape", {5120}}, {"bytes", 5120 * 2}});
  for (int i = 0; i < 2; ++i) {
    std::string file = fmt::format("model-0000{}-of-00002.safetensors", i + 1);
    for (const auto& t : shard[i]) index["weight_map"][t["name"].get<std::string>()] = file;
    auto [head, size] = safetensors_header(shard[i], json{{"format", "pt"}});
    s.add_file(kAwqRepo, file, head, size);
  }
  s.add_file(kAwqRepo, "model.safetensors.index.json", index.dump(2));
}

namespace {

// A Llama-3.1-8B GGUF header: linears in `linear_type`, output.weight Q6_K, norms F32.
std::pair<std::string, std::uint64_t> llama_gguf(std::uint32_t file_type, std::uint32_t linear_type, std::uint32_t block, std::uint32_t block_bytes,
                                                 int first_layer, int last_layer, bool metadata, int split, int splits) {
  GgufWriter w;
  if (metadata) {
    w.str("general.architecture", "llama");
    w.str("general.name", "Meta Llama 3.1 8B Instruct");
    w.u32("general.file_type", file_type);
    w.u32("llama.block_count", 32);
    w.u32("llama.context_length", 131072);
    w.u32("llama.embedding_length", 4096);
    w.u32("llama.feed_forward_length", 14336);
    w.u32("llama.attention.head_count", 32);
    w.u32("llama.attention.head_count_kv", 8);
    w.u32("llama.vocab_size", 128256);
    w.str_array("tokenizer.ggml.tokens", std::vector<std::string>(128256, "tok"));  // ~1.5 MB: the range must grow
  }
  if (splits > 1) {
    w.u32("split.no", static_cast<std::uint32_t>(split));
    w.u32("split.count", static_cast<std::uint32_t>(splits));
  }
  if (first_layer == 0) w.tensor("token_embd.weight", {4096, 128256}, linear_type, block, block_bytes);
  for (int l = first_layer; l <= last_layer; ++l) {
    std::string p = fmt::format("blk.{}.", l);
    w.tensor(p + "attn_q.weight", {4096, 4096}, linear_type, block, block_bytes);
    w.tensor(p + "attn_k.weight", {4096, 1024}, linear_type, block, block_bytes);
    w.tensor(p + "attn_v.weight", {4096, 1024}, linear_type, block, block_bytes);
    w.tensor(p + "attn_output.weight", {4096, 4096}, linear_type, block, block_bytes);
    w.tensor(p + "ffn_gate.weight", {4096, 14336}, linear_type, block, block_bytes);
    w.tensor(p + "ffn_up.weight", {4096, 14336}, linear_type, block, block_bytes);
    w.tensor(p + "ffn_down.weight", {14336, 4096}, linear_type, block, block_bytes);
    w.tensor(p + "attn_norm.weight", {4096}, 0, 1, 4);
    w.tensor(p + "ffn_norm.weight", {4096}, 0, 1, 4);
  }
  if (last_layer == 31) {
    w.tensor("output_norm.weight", {4096}, 0, 1, 4);
    w.tensor("output.weight", {4096, 128256}, 14, 256, 210);
  }
  return w.header_and_size();
}

}  // namespace

void serve_llama_gguf(HubServer& s) {
  s.add_repo(kGgufRepo, kGgufSha);
  s.add_file(kGgufRepo, "README.md", "# GGUF\n");
  auto [q4, q4_size] = llama_gguf(15, 12, 256, 144, 0, 31, true, 0, 1);  // Q4_K_M: Q4_K linears
  s.add_file(kGgufRepo, "Llama-3.1-8B-Instruct-Q4_K_M.gguf", q4, q4_size);
  auto [q8, q8_size] = llama_gguf(7, 8, 32, 34, 0, 31, true, 0, 1);  // Q8_0
  s.add_file(kGgufRepo, "Llama-3.1-8B-Instruct-Q8_0.gguf", q8, q8_size);
  auto [p1, p1_size] = llama_gguf(10, 10, 256, 84, 0, 15, true, 0, 2);  // Q2_K, split in two parts
  auto [p2, p2_size] = llama_gguf(10, 10, 256, 84, 16, 31, false, 1, 2);
  s.add_file(kGgufRepo, "Q2_K/Llama-3.1-8B-Instruct-Q2_K-00001-of-00002.gguf", p1, p1_size);
  s.add_file(kGgufRepo, "Q2_K/Llama-3.1-8B-Instruct-Q2_K-00002-of-00002.gguf", p2, p2_size);
}

void serve_gguf_listings(HubServer& s) {
  s.add_repo(kShortRepo, "1111111111111111111111111111111111111111");
  auto [q2, q2_size] = llama_gguf(10, 10, 256, 84, 0, 31, true, 0, 1);
  s.add_file(kShortRepo, "Llama-3.1-8B-Instruct-Q2_K.gguf", q2, q2_size);
  s.add_file(kShortRepo, "Llama-3.1-8B-Instruct-Q3_K_S.gguf", "", 3'665'000'000);  // listed: its bytes are never read
  s.add_file(kShortRepo, "README.md", "# small\n");

  s.add_repo(kOddRepo, "2222222222222222222222222222222222222222");
  auto [q4, q4_size] = llama_gguf(15, 12, 256, 144, 0, 31, true, 0, 1);
  s.add_file(kOddRepo, "My Model-Q4_K_M.gguf", q4, q4_size);  // the first by name: the shape is read from it
  s.add_file(kOddRepo, "\xd0\x9c\xd0\xbe\xd0\xb4\xd0\xb5\xd0\xbb\xd1\x8c-Q8_0.gguf", "", 8'540'000'000);  // Модель-Q8_0.gguf
  s.add_file(kOddRepo, "sub dir/it's $(touch pwned)-Q5_K_M.gguf", "", 5'730'000'000);
  s.add_file(kOddRepo, "evil\x1b[31m-Q6_K.gguf", "", 6'600'000'000);
  s.add_file(kOddRepo, "../escape-Q3_K_M.gguf", "", 4'020'000'000);
  s.add_file(kOddRepo, "mmproj-Q4_0.gguf", "", 800'000'000);

  s.add_repo(kRecordGguf, "3333333333333333333333333333333333333333");
  s.add_file(kRecordGguf, "DeepSeek-R1-Distill-Llama-8B-Q4_K_M.gguf", "", 4'920'000'000);
  s.add_file(kRecordGguf, "DeepSeek-R1-Distill-Llama-8B-Q8_0.gguf", "", 8'540'000'000);
  s.add_file(kRecordGguf, "DeepSeek-R1-Distill-Llama-8B-F16.gguf", "", 16'070'000'000);
}

void serve_misbehaving(HubServer& s) {
  const std::pair<const char*, Misbehave> repos[] = {
      {"test/gated", Misbehave::gated},           {"test/private", Misbehave::private_repo}, {"test/rate-limited", Misbehave::rate_limited},
      {"test/flaky", Misbehave::flaky},           {"test/short-body", Misbehave::short_body}, {"test/ignore-range", Misbehave::ignore_range},
      {"test/redirect-loop", Misbehave::redirect_loop}, {"test/never-ends", Misbehave::never_ends}, {"test/huge-length", Misbehave::huge_length},
      {"test/trickle", Misbehave::trickle},       {"test/storm", Misbehave::storm_429},
      {"test/crlf-etag", Misbehave::crlf_etag},   {"test/http09", Misbehave::http09},         {"test/header-flood", Misbehave::header_flood},
  };
  json tensors = json::array();
  tiny_unquantized(tensors, "BF16");
  for (auto [n, i, o] : tiny_linears()) tensors.push_back({{"name", n + ".weight"}, {"dtype", "BF16"}, {"shape", {o, i}}, {"bytes", i * o * 2}});
  auto [head, size] = safetensors_header(tensors);
  for (const auto& [repo, how] : repos) {
    s.add_repo(repo, "fedcba9876543210fedcba9876543210fedcba98", how);
    s.add_file(repo, "config.json", tiny_config().dump(2));
    // 40 MB: a server that ignores the Range sends far more than the header.
    s.add_file(repo, "model.safetensors", head, how == Misbehave::ignore_range ? 40u << 20 : size);
  }
  // A header length of 2^63: refused before anything is allocated.
  s.add_repo("test/huge-header", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
  s.add_file("test/huge-header", "config.json", tiny_config().dump(2));
  s.add_file("test/huge-header", "model.safetensors", le64(1ull << 63) + "{}", 1 << 20);
}

void serve_heavy(HubServer& s) {
  s.add_repo("test/changing", "fedcba9876543210fedcba9876543210fedcba98", Misbehave::changing);
  // A GGUF header of 1.5 MB, read in several Ranges: the server changes it between them.
  auto [gguf, gguf_size] = llama_gguf(15, 12, 256, 144, 0, 31, true, 0, 1);
  s.add_file("test/changing", "model-Q4_K_M.gguf", gguf, gguf_size);
  // An index naming 3,000 shards, each a small header of its own tensor.
  s.add_repo("test/shards-3000", "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb");
  s.add_file("test/shards-3000", "config.json", tiny_config().dump(2));
  json index = {{"weight_map", json::object()}};
  for (int i = 0; i < 3000; ++i) {
    std::string file = fmt::format("model-{:05}-of-03000.safetensors", i + 1), name = fmt::format("extra.{}.weight", i);
    index["weight_map"][name] = file;
    auto [shard, shard_size] = safetensors_header(json::array({{{"name", name}, {"dtype", "BF16"}, {"shape", {64}}, {"bytes", 128}}}));
    s.add_file("test/shards-3000", file, shard, shard_size);
  }
  s.add_file("test/shards-3000", "model.safetensors.index.json", index.dump());
  // 100,000 GGUF names in the file list (within qsel's cap of files per repository).
  s.add_repo("test/many-ggufs", "cccccccccccccccccccccccccccccccccccccccc");
  std::vector<std::string> names;
  for (int i = 0; i < 100000; ++i) names.push_back(fmt::format("m{}-Q{}_K.gguf", i, i % 9));
  s.add_listed_names("test/many-ggufs", names);
}

void serve_sharded(HubServer& s, const std::string& repo, int shards) {
  s.add_repo(repo, "dddddddddddddddddddddddddddddddddddddddd");
  s.add_file(repo, "config.json", tiny_config().dump(2));
  json index = {{"weight_map", json::object()}};
  json first = json::array();
  tiny_unquantized(first, "BF16");
  for (int i = 0; i < shards; ++i) {
    std::string file = fmt::format("model-{:05}-of-{:05}.safetensors", i + 1, shards);
    json tensors = i == 0 ? first : json::array();
    // Shapes differ from shard to shard: a mix-up between two answers changes the total.
    std::uint64_t n = 64 * static_cast<std::uint64_t>(i + 1);
    tensors.push_back({{"name", fmt::format("extra.{}.weight", i)}, {"dtype", "BF16"}, {"shape", {n}}, {"bytes", n * 2}});
    for (const auto& t : tensors) index["weight_map"][t["name"].get<std::string>()] = file;
    auto [head, size] = safetensors_header(tensors);
    s.add_file(repo, file, head, size);
  }
  s.add_file(repo, "model.safetensors.index.json", index.dump());
}

HubSettings hub_settings(const HubServer& s, const TempDir& d) {
  HubSettings h;
  h.endpoint = s.endpoint();
  h.cache_dir = (d.path() / "cache").string();
  // No hub test measures the stall window (tests/net/http_test.cc does, with its own): 10 s, since a 1 s window
  // failed a Range read in a ctest -j2 run on a machine busy with other builds.
  h.http.stall_timeout_s = 10;
  h.http.total_timeout_s = 20;
  return h;
}

std::string hub_env(const HubServer& s, const TempDir& cache) {
  return fmt::format("env -u HF_TOKEN -u HUGGING_FACE_HUB_TOKEN -u HF_HUB_OFFLINE HF_ENDPOINT={} XDG_CACHE_HOME={} HF_HOME={} ", s.endpoint(),
                     (cache.path() / "cache").string(), (cache.path() / "hf").string());
}

}  // namespace qsel::test
