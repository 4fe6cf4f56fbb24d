// One format on one target, as the rule engine sees it: native, emulated,
// unsupported, contested or unknown. explain and recommend both read it from the
// same Deliberation, so they cannot disagree.
#pragma once
#include <string>
#include <vector>

#include "qsel/rules/deliberation.h"

namespace qsel {

struct Verdict {
  std::string value;                 // native | dequant | emulated | unsupported | contested | unknown
  std::vector<std::string> reasons;  // one line each, citing records
};

Verdict verdict_for(const Deliberation& d, const Record& format);

// The verdict for `format` on the part or target of `q`, from a deliberation over
// that format alone: what explain F --on GPU says, and what list --native-on, graph
// and explain GPU say for the pair. (A deliberation over every format folds fp16 into
// bf16 where the target has bf16, so it has no candidate to judge fp16 by.)
Verdict format_verdict(const Graph& g, Query q, const Record& format);

// The engines (of those the query allows) that run on its target and store their KV cache in
// `kv_format` there: what a KV-cache format's verdict rests on, and whom Rule 6 offers it with.
std::vector<const Record*> kv_cache_engines(const Deliberation& d, const Record& kv_format);
// How one of those engines stores a KV-cache format on the query's target: the attention backend
// its kernel_selection picks there (first entry that holds, as for weight formats) and the path
// that backend gives — native when the kernel computes on the 8-bit values (mode native, on a
// target with the precision), dequant when it widens them to 16 bits in the kernel. With no
// entry that holds, `kernel` is null and the path is the one the format record's lists give.
struct KvPath {
  const Record* engine = nullptr;
  const Record* kernel = nullptr;
  const nlohmann::json* entry = nullptr;  // the kernel_selection entry picked, or null
  std::string path;
  std::string why;  // one line naming the backend and its gate, or saying none is recorded
};
std::vector<KvPath> kv_cache_paths(const Deliberation& d, const Record& kv_format);
// The parts (accelerator records) built on the query's target, or just the query's part.
std::vector<const Record*> parts_of(const Deliberation& d);

}  // namespace qsel
