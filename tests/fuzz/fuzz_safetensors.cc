// libFuzzer harness: a safetensors header, then the checkpoint analysis of a
// folder holding it (with a fixed AWQ config.json, so packed-weight paths run).
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "qsel/artifact/checkpoint.h"
#include "qsel/core/errors.h"
#include "qsel/graph/graph.h"
#include "qsel/loader/corpus_blob.h"
#include "qsel/model/checkpoint_format.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const qsel::Graph graph(qsel::embedded().corpus);
  static const std::filesystem::path dir = [] {
    auto d = std::filesystem::path("/tmp") / ("qsel-fuzz-st-" + std::to_string(getpid()));
    std::filesystem::create_directories(d);
    std::ofstream(d / "config.json") << R"({"num_hidden_layers": 2, "hidden_size": 64, "num_attention_heads": 4, "vocab_size": 100,
      "quantization_config": {"quant_method": "awq", "bits": 4, "group_size": 32}})";
    return d;
  }();
  {
    std::ofstream out(dir / "model.safetensors", std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  try {
    qsel::Checkpoint c = qsel::read_checkpoint(dir.string());
    qsel::analyze_checkpoint(graph, c);
  } catch (const qsel::UsageError&) {
  }
  return 0;
}
