// Hub-shaped repositories for the loopback server (support/hub_server.h),
// built from the format specs the way their producers lay them out: a Qwen3-32B
// AWQ checkpoint (config.json with quantization_config, a shard index, two
// shard headers), a Llama-3.1-8B GGUF repo (Q4_K_M, Q8_0 and a Q2_K split in two
// parts), and one small repo per misbehaviour.
#pragma once
#include <string>

#include "qsel/model/hub.h"
#include "support/fixtures.h"
#include "support/hub_server.h"

namespace qsel::test {

inline constexpr const char* kAwqRepo = "Qwen/Qwen3-32B-AWQ";
inline constexpr const char* kAwqSha = "0123456789abcdef0123456789abcdef01234567";
inline constexpr const char* kGgufRepo = "unsloth/Llama-3.1-8B-Instruct-GGUF";
inline constexpr const char* kGgufSha = "89abcdef0123456789abcdef0123456789abcdef";

void serve_qwen3_32b_awq(HubServer& s);
void serve_llama_gguf(HubServer& s);
// GGUF repositories whose file lists name the files the printed commands use:
//   kShortRepo   a Llama-3.1-8B repo holding only Q2_K and Q3_K_S (the best type that fits is not there);
//   kOddRepo     names with a space, Cyrillic letters, a folder, a quote and $(...), an escape
//                sequence and a "../" path (a Q4_K_M header is read for the shape);
//   kRecordGguf  a repo a model record lists (its file list only, no file is read).
inline constexpr const char* kShortRepo = "someone/Llama-3.1-8B-Instruct-small-GGUF";
inline constexpr const char* kOddRepo = "test/odd-names-GGUF";
inline constexpr const char* kRecordGguf = "unsloth/DeepSeek-R1-Distill-Llama-8B-GGUF";
void serve_gguf_listings(HubServer& s);

// test/<name> for every Misbehave value but none (test/gated, test/flaky, …), each a tiny
// llama checkpoint (config.json and one model.safetensors).
void serve_misbehaving(HubServer& s);
// The larger hostile repositories: test/changing (a 1.5 MB GGUF header that changes between
// Range reads), test/shards-3000 (an index of 3,000 shards), test/many-ggufs (100,000 GGUF names).
void serve_heavy(HubServer& s);

// `repo`: a tiny llama checkpoint (config.json) whose index names `shards` shards,
// model-00001-of-000NN.safetensors…, shard i holding extra.{i}.weight of 64 x (i + 1)
// elements (the first also the model's own tensors).
void serve_sharded(HubServer& s, const std::string& repo, int shards);

// Client settings for `s` with their own cache folder in `d` and a 1 s stall limit.
HubSettings hub_settings(const HubServer& s, const TempDir& d);

// A shell prefix that points the built qsel at `s` with its own cache folder
// ("HF_ENDPOINT=… XDG_CACHE_HOME=… HF_TOKEN= HF_HOME=… "), for run_binary.
std::string hub_env(const HubServer& s, const TempDir& cache);

}  // namespace qsel::test
