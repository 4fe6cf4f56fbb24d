// Parallel layouts: how an engine can lay one model across the GPUs asked for, from its own
// divisibility rules (engine `tensor_parallel`: heads, KV heads, block-quantized MoE widths) and
// launch flags. The sizing of each option and the choice between them is compute_memory.cc's.
#pragma once
#include <vector>

#include "qsel/graph/graph.h"
#include "qsel/model/model_spec.h"
#include "qsel/sizing/memory.h"

namespace qsel {

struct LayoutAsk {
  const Record* engine = nullptr;       // null: the unquantized baseline with no engine (one GPU's worth)
  const Record* format = nullptr;
  const Record* accelerator = nullptr;
  const ModelSpec* model = nullptr;
  int count = 1;                        // GPUs asked for (--count)
  int nodes = 0;                        // --nodes; 0: from the part's count_per_node, else 8 per node
};

// The layouts worth sizing, best first when they fit alike: all GPUs of a node in tensor parallel
// (with expert parallelism where the MoE block rule refuses plain TP), a smaller valid TP with GPUs
// idle, a smaller TP with pipeline stages; across nodes, the fewest nodes per replica first.
// Never empty: one GPU, or a layer split for engines without tensor parallelism.
std::vector<Layout> layout_options(const LayoutAsk& ask);

// Whether the engine accepts tensor-parallel size `tp` for this model and format (with expert
// parallelism `ep`); `why` gets the reason when it does not.
bool tp_accepted(const LayoutAsk& ask, int tp, bool ep, std::string* why = nullptr);

// KV heads an engine keeps when the TP size outnumbers them: each GPU a replica, so the cache grows.
double kv_replication(const Record* engine, const ModelSpec& m, int tp);

}  // namespace qsel
