// From what the tools report to the part qsel answers for: each reported GPU
// matched to a record (its name, memory and target must agree), or described
// from the driver's figures when no record fits; identical GPUs counted; an
// integrated GPU's carve-out set aside when a discrete GPU is present.
#pragma once
#include <optional>
#include <string>

#include "qsel/detect/gpu_probe.h"
#include "qsel/graph/custom_part.h"
#include "qsel/graph/graph.h"

namespace qsel {

struct LocalGpu {
  const Record* record = nullptr;   // the matching record; null when `custom` describes the part
  std::optional<CustomPart> custom; // the driver's figures, when no record fits
  int count = 1;                    // identical GPUs
  double free_mib = 0;              // the least memory free on any of them, as the tool reported it; 0 when not reported
  std::string note;                 // what was detected and how it was read
};

// The record a reported GPU is, or null: its name matches a spelling, and its
// memory (within 10%) and target agree with the record.
const Record* record_of_reported(const Graph& g, const ReportedGpu& gpu);

// The part to answer for; a UsageError (exit 2) when nothing was found or the
// largest GPU found is neither a record nor on a known target.
LocalGpu choose_local_gpu(const Graph& g, const Probe& probe);

}  // namespace qsel
