// A GPU no record describes, built from what the user or the driver says about
// it: memory, bandwidth and a target record. Every rule then runs on the
// target's facts; the part is marked user_described so answers say whose
// numbers these are.
#pragma once
#include <string>

#include "qsel/graph/graph.h"

namespace qsel {

struct CustomPart {
  std::string name;                 // shown as the part's name; "user-described GPU" when empty
  double memory_gb = 0;             // the vendor's label, binary-sized ("24" = 24 GiB), 0 = not given
  double memory_reported_mib = 0;   // the driver's total, when detected
  double bandwidth_gbs = 0;         // 0 = not given (no decode ceiling)
  std::string target;               // a target id or alias: "sm86", "gfx1100", "cc 8.9"
  std::string described_by;         // "--vram/--target", "nvidia-smi"
};

// The accelerator record for `spec` (id "custom"), or a UsageError naming what is
// missing or unknown. The record lives as long as the caller keeps it.
Record make_custom_part(const Graph& g, const CustomPart& spec);

}  // namespace qsel
