// libFuzzer harness: what the machine's own tools print (nvidia-smi, amd-smi,
// rocm-smi, sysctl, system_profiler, /proc/meminfo), read into GPUs and RAM, then
// matched to the corpus the way --gpu auto does. The first byte picks the reader;
// the Apple reader takes sysctl's and system_profiler's text cut at "\n--8<--\n".
// With the first byte's high bit set, the GPUs read are also matched to the
// corpus (slower: the fuzzer spends most runs on the readers). Junk must read as
// no GPU or a usage error, never a crash.
#include <cstddef>
#include <cstdint>
#include <string>

#include "qsel/core/errors.h"
#include "qsel/detect/gpu_probe.h"
#include "qsel/detect/host_ram.h"
#include "qsel/detect/local_gpu.h"
#include "qsel/graph/graph.h"
#include "qsel/loader/corpus_blob.h"

namespace {

const qsel::Graph& corpus_graph() {
  static const qsel::Graph graph(qsel::embedded().corpus);
  return graph;
}

}  // namespace

// The corpus is decoded before the first input: under ASan at -O0 that takes
// seconds, which libFuzzer would count against the first input's timeout.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  (void)corpus_graph();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const qsel::Graph& graph = corpus_graph();
  if (size == 0) return 0;
  std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  qsel::Probe p;
  switch ((data[0] & 0x7f) % 7) {
    case 0: p.gpus = qsel::parse_nvidia_smi_csv(text); break;
    case 1: p.gpus = qsel::parse_nvidia_smi_table(text); break;
    case 2: p.gpus = qsel::parse_amd_smi_static(text); break;
    case 3: p.gpus = qsel::parse_rocm_smi(text); break;
    case 4: {
      std::size_t cut = text.find("\n--8<--\n");
      p.gpus = qsel::parse_apple(text.substr(0, cut), cut == std::string::npos ? "" : text.substr(cut + 8));
      break;
    }
    case 5: (void)qsel::parse_meminfo_total_gb(text); return 0;
    default: (void)qsel::parse_sysctl_memsize_gb(text); return 0;
  }
  for (const auto& g : p.gpus)
    if (!(g.memory_mib >= 0)) __builtin_trap();
  if (p.gpus.empty() || !(data[0] & 0x80)) return 0;
  try {
    (void)qsel::choose_local_gpu(graph, p);
  } catch (const qsel::UsageError&) {
  }
  return 0;
}
