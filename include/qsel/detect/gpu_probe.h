// What the machine says about its GPUs: the output of nvidia-smi, amd-smi,
// rocm-smi, and on macOS sysctl / system_profiler, read into one shape. The
// parsers are pure (text in, GPUs out) so tests feed them captured output;
// probe_gpus runs the tools, bounded in time and output size.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "qsel/detect/host_ram.h"

namespace qsel {

struct ReportedGpu {
  std::string tool;       // "nvidia-smi", "amd-smi", "rocm-smi", "sysctl", "system_profiler"
  std::string index;      // the tool's device index ("0", "card1"); empty when it gives none
  std::string name;       // as printed: "NVIDIA GeForce RTX 3090", "Radeon RX 7900 XT", "Apple M1 Pro"
  double memory_mib = 0;  // total memory as the tool reports it; 0 when it does not say
  std::string target;     // "sm86" (from compute_cap 8.6), "gfx1100", "apple-m1"; empty when unknown
};

// `nvidia-smi --query-gpu=... --format=csv[,noheader][,nounits]`: columns by the
// header when there is one, else name, memory.total, compute_cap.
std::vector<ReportedGpu> parse_nvidia_smi_csv(std::string_view text);
// The plain `nvidia-smi` table (name on the GPU row, "used / total MiB" below it).
std::vector<ReportedGpu> parse_nvidia_smi_table(std::string_view text);
// `rocm-smi --showproductname --showmeminfo vram` in --csv, --json or plain form.
std::vector<ReportedGpu> parse_rocm_smi(std::string_view text);
// `amd-smi static` (MARKET_NAME, TARGET_GRAPHICS_VERSION, VRAM SIZE).
std::vector<ReportedGpu> parse_amd_smi_static(std::string_view text);
// macOS: `sysctl machdep.cpu.brand_string hw.memsize` and, when that does not
// name an Apple chip or its memory, `system_profiler SPHardwareDataType` (Chip,
// Memory) or SPDisplaysDataType (a discrete GPU's Chipset Model, VRAM).
std::vector<ReportedGpu> parse_apple(std::string_view sysctl, std::string_view profiler);

// "8.6" → "sm86", "12.0" → "sm120"; empty when not a compute capability.
std::string target_of_compute_cap(std::string_view cap);

struct Probe {
  std::vector<ReportedGpu> gpus;
  std::vector<std::string> tried;  // one line per tool: "nvidia-smi: not installed", "rocm-smi: 2 GPUs"
  std::optional<InstalledRam> ram; // the host's RAM, read under the same deadline; nothing when unknown
};

// Runs the tools in order (nvidia-smi, amd-smi, rocm-smi, sysctl/system_profiler)
// found in `path` (':'-separated; empty = PATH) under one deadline of `timeout_ms`,
// each killed (with its whole session) after three quarters of it at most. NVIDIA
// and AMD tools are both asked; macOS tools only when neither reports a GPU. Then
// the host's RAM, inside the same deadline: `meminfo`, else sysctl hw.memsize.
Probe probe_gpus(const std::string& path = "", int timeout_ms = 4500, const std::string& meminfo = "/proc/meminfo");

}  // namespace qsel
