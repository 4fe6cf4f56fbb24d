// The GPU a command is about: a record by id, alias, family or everyday
// spelling; a target; a part the user describes (--vram/--bandwidth/--target);
// or "auto", the GPUs this machine reports. Fails with one usage line (exit 2)
// that names what was understood and what to type instead.
#pragma once
#include <memory>
#include <optional>
#include <string>

#include "qsel/detect/host_ram.h"
#include "qsel/graph/graph.h"

namespace qsel {

struct GpuArg {
  const Record* accelerator = nullptr;     // null when the query named a target
  const Record* target = nullptr;          // null when the part names no target record
  std::string note;                        // how the query resolved when not by id, else empty
  std::shared_ptr<const Record> owned;     // holds `accelerator` when it is user-described or detected-unknown
  int count = 0;                           // GPUs detected by "auto" (0 = not detected)
  int devices = 1;                         // GPUs the engines see per package (MI250X: 2 GCDs); `accelerator` is one of them
  std::optional<InstalledRam> host_ram;    // "auto": the host's RAM, read within the same detection deadline
};

// What the user may say about a part besides its name.
struct GpuSpec {
  double vram_gb = 0;        // --vram: the vendor's label in GB (binary-sized, as vendors mean it)
  double bandwidth_gbs = 0;  // --bandwidth
  std::string target;        // --target
  bool describable = false;  // the command takes a described part (recommend); browse commands do not
  bool any() const { return vram_gb > 0 || bandwidth_gbs > 0 || !target.empty(); }
};

// An accelerator id, alias, family or spelling ("RTX 3090", "a100 40gb"); with
// `allow_target`, a target id or alias too. "auto" probes this machine (tools
// found in `probe_path`, empty = PATH); "custom" or any name with a GpuSpec builds
// a user-described part.
GpuArg resolve_gpu(const Graph& g, const std::string& query, bool allow_target, const GpuSpec& spec = {},
                   const std::string& probe_path = "");

}  // namespace qsel
