// One recommendation request, with its defaults resolved and stated.
#pragma once
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "qsel/graph/graph.h"
#include "qsel/model/model_spec.h"
#include "qsel/sizing/placement.h"

namespace qsel {

struct Query {
  const Record* accelerator = nullptr;  // null when asking about a bare target (explain --on TARGET)
  const Record* target = nullptr;
  std::shared_ptr<const Record> described_part;  // owns `accelerator` when the user (or a driver) described it
  std::string gpu_note;                 // how the --gpu spelling resolved, when it needed saying
  int count = 1;
  int nodes = 0;                        // --nodes: machines the count spreads over; 0: the part's count_per_node, else 8 a node
  std::optional<ModelSpec> model;       // absent for explain
  std::vector<std::string> engines;     // restrict to these engine ids; empty = every engine but those that answer only when named
  bool every_engine = false;            // with no engines named, also those that answer only when named (explain)
  std::vector<std::string> formats;     // restrict to these format ids; empty = every format
  std::vector<std::string> backends;    // --backend: restrict to these backends (cuda, rocm, vulkan …); empty = every backend
  long context = 8192;
  int batch = 1;
  std::string kv_cache = "auto";        // auto | fp16 | bf16 | fp8 | int8
  bool portable = false;
  std::string objective = "quality";    // quality | speed | memory: what ranks the candidates
  double memory_fraction = 0;           // --memory-fraction: replaces every engine's fraction when positive
  double headroom_gb = -1;              // --headroom GB per part; replaces every engine's margin when >= 0
  double headroom_fraction = -1;        // --headroom N%: of each part's total, when >= 0
  Host host = default_host();           // system RAM and its bandwidth (--ram, --ram-bandwidth, --gpu auto)
  double min_tok_s = 2;                 // --min-tok-s: offload plans forecast below it are "slow"
  int concurrency = 0;                  // --concurrency: sequences a serving engine's KV cache must hold; 0: the default
  // What --concurrency means when not given: --batch, and at least 2 on datacenter and cloud parts,
  // where the question is serving (1 elsewhere).
  int serving_concurrency() const;
  std::string spec_decode = "none";     // none | draft | mtp | ngram
  bool prefix_caching = false;
  std::vector<std::string> extra_flags; // --flag key[=value]: serving facts qsel cannot observe
  bool suggest = true;                  // leads that ask again with a change (nothing fits: what would); off in those asks

  // Flags that record selectors test (gotcha applies.flags, kernel_selection flags).
  std::set<std::string> flags() const;
  // Flags whose truth this query knows, set or not (a selector naming another flag is conditional).
  bool knows_flag(const std::string& flag) const;
};

}  // namespace qsel
