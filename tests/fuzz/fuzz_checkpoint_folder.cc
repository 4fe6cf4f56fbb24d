// libFuzzer harness: a checkpoint folder as `qsel inspect DIR` and `--model DIR`
// read it: config.json, model.safetensors.index.json and two shard headers,
// cut from one input at "\n--8<--\n" lines (a missing part is a missing file).
// The index may name the shards (s1.safetensors, s2.safetensors) or anything
// else; the folder is per process and rewritten for every input.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "qsel/artifact/checkpoint.h"
#include "qsel/core/errors.h"
#include "qsel/graph/graph.h"
#include "qsel/loader/corpus_blob.h"
#include "qsel/model/checkpoint_format.h"
#include "qsel/model/model_checkpoint.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const qsel::Graph graph(qsel::embedded().corpus);
  static const std::filesystem::path dir = "/tmp/qsel-fuzz-folder-" + std::to_string(getpid());
  static const char* files[] = {"config.json", "model.safetensors.index.json", "s1.safetensors", "s2.safetensors"};
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::string_view in(reinterpret_cast<const char*>(data), size);
  constexpr std::string_view cut = "\n--8<--\n";
  for (const char* name : files) {
    if (in.empty()) break;
    std::size_t end = in.find(cut);
    std::string_view part = in.substr(0, end);
    std::ofstream(dir / name, std::ios::binary) << part;
    in = end == std::string_view::npos ? std::string_view() : in.substr(end + cut.size());
  }
  try {
    qsel::Checkpoint c = qsel::read_checkpoint(dir.string());
    qsel::CheckpointAnalysis a = qsel::analyze_checkpoint(graph, c);
    qsel::model_from_checkpoint(c, a);
  } catch (const qsel::UsageError&) {
  }
  return 0;
}
