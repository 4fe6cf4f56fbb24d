// libFuzzer harness: a GGUF header, then its analysis and the model it
// describes, exactly as `qsel inspect` reads a file, then recommend's path for
// that model on an H100 (sizing, the seven rules, ranking): the metadata a
// stranger's file carries reaches the memory arithmetic. The input is written to
// a per-process file because the reader reads files (headers only, bounded).
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <string>

#include "qsel/artifact/checkpoint.h"
#include "qsel/core/errors.h"
#include "qsel/graph/graph.h"
#include "qsel/loader/corpus_blob.h"
#include "qsel/model/checkpoint_format.h"
#include "qsel/model/model_checkpoint.h"
#include "qsel/rules/deliberation.h"
#include "qsel/rules/query.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const qsel::Graph graph(qsel::embedded().corpus);
  static const std::string path = "/tmp/qsel-fuzz-" + std::to_string(getpid()) + ".gguf";
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  try {
    qsel::Checkpoint c = qsel::read_checkpoint(path);
    qsel::CheckpointAnalysis a = qsel::analyze_checkpoint(graph, c);
    qsel::ModelSpec m = qsel::model_from_checkpoint(c, a);
    qsel::Query q;
    q.accelerator = graph.find("h100-sxm");
    q.target = q.accelerator ? graph.find(q.accelerator->str("target")) : nullptr;
    if (q.accelerator && q.target) {
      q.model = m;
      q.context = 32768;
      qsel::deliberate(graph, q);
    }
  } catch (const qsel::UsageError&) {
  }
  return 0;
}
