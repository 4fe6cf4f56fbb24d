// Rule 2 made executable: read an engine's start-up log, find the kernel it
// picked (the patterns live on each engine's kernel_selection entries), the
// facts it printed (compute capability, quantization method) and the known
// misleading notices, and compare with the kernel the rules predict for this
// format on this target. The verdict: match, mismatch, or unverified.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "qsel/graph/graph.h"

namespace qsel {

struct VerifyRequest {
  std::string log;                        // a path, or "-" for standard input
  const Record* engine = nullptr;         // --engine; null = detect from the log
  const Record* accelerator = nullptr;    // --gpu (a part); null when a target or nothing was given
  const Record* target = nullptr;         // from --gpu; null = read the compute capability from the log
  const Record* format = nullptr;         // --model PATH or --format; null = read the method from the log
  std::vector<std::string> flags;         // serving facts (checkpoint=w4a16 from a weight-only checkpoint, --flag)
  std::string format_source;              // how the format was learned ("read ./ckpt: …", "--format awq")
};

// The verification as JSON (schemas/output/verify.schema.json); "verdict" is
// "match" (exit 0), "mismatch" or "unverified" (exit 1).
nlohmann::ordered_json verify_log(const Graph& g, const VerifyRequest& request);

}  // namespace qsel
