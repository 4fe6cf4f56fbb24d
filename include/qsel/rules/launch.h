// The commands that carry out a plan (DESIGN §6a "printed commands are
// contracts"): each engine's `launch` templates filled with what the plan
// assumed — the file or repo, the context, the KV-cache type, the layers on the
// GPU counted as the engine counts them, the split across GPUs, the memory
// fraction and sequences — plus the engine's own fitting as the alternative and
// the quantize step of a file nobody publishes. Only flags of the engine's
// recorded release appear (engine `cli`; tests/rules/launch_grid_test.cc).
#pragma once
#include <optional>
#include <string>

#include "qsel/rules/deliberation.h"

namespace qsel {

// The flags that select KV-cache format `kv` on `engine`'s command line: "" for a
// 16-bit cache (the engines' default); nullopt when the engine records a launch
// spec and no entry for that format (the plan cannot be expressed), or "" when it
// records no launch spec at all (nothing is printed for it).
std::optional<std::string> kv_cache_flags(const Record& engine, const Record* kv_format, const Record* target = nullptr);
// The entry of `engine`'s launch kv_cache that refuses `kv_format` on `target` (refused: true, the target listed):
// no backend of the engine takes that cache there. nullptr when none does.
const nlohmann::json* kv_cache_refusal(const Record& engine, const Record* kv_format, const Record* target);

// A GGUF format's type as publishers spell it in file names (Q4_K_M, MXFP4_MOE):
// the alias that is one upper-case word, never the llama.cpp enum (LLAMA_FTYPE_...).
std::string gguf_quant_name(const Record& format);

// The file or repo a candidate runs from, as its engine's launch names it.
struct ModelArg {
  std::string template_key;  // "model", "model_repo" or "model_library" (a tag in the engine's own library)
  std::string value;         // the file name, "repo" or "repo:QUANT"
  std::string note;          // how it was chosen ("no published checkpoint: a file you quantize yourself")
  std::string hub_value;     // "ORG/NAME:QUANT" for the engine's model_repo (llama.cpp -hf): the same file fetched from the
                             // Hub, when the file list holds exactly one file of that type at main; empty otherwise
  std::string make;          // the line that makes the file first (the engine's `convert` or `quantize`), when it is one to make
  std::string make_program;  // the program `make` runs (convert_hf_to_gguf.py, mlx_lm.convert)
};

// `word` as one shell word: as it is when it holds only letters, digits and ._/+:@,=-,
// else in single quotes (a quote inside as '\''), so a file name with spaces or $(...) is pasted safely.
std::string shell_word(const std::string& word);
ModelArg model_arg(const Deliberation& d, const Candidate& c);

// Fills `commands` of every candidate that fits and whose engine records a launch spec.
void launch_commands(Deliberation& d);

}  // namespace qsel
