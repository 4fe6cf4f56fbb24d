// Running the vendor tools in turn. NVIDIA and AMD GPUs may share a machine, so
// both are asked; macOS is asked only when neither reports a GPU. Every tool's
// outcome is kept in one line so "no GPU found" can say what was tried. The
// whole detection has one deadline (4.5 s: issue 26 asks for an answer within
// 5 s however the tools behave); each tool gets at most three quarters of it, so
// a slow nvidia-smi (a GPU waking without persistence mode) still has 3.4 s, one
// that hangs leaves the next a chance, and none starts once it has passed. The
// host's RAM is read inside the same deadline: /proc/meminfo, else sysctl.
#include <algorithm>
#include <chrono>

#include <fmt/format.h>

#include "qsel/core/run_command.h"
#include "qsel/detect/gpu_probe.h"
#include "qsel/detect/host_ram.h"

namespace qsel {
namespace {

using Clock = std::chrono::steady_clock;

// A tool's run: not started (the deadline had passed), not installed, or its result.
struct Run {
  bool late = false;
  std::optional<CommandResult> result;
  double seconds = 0;  // how long it ran
  const CommandResult* operator->() const { return &*result; }
  explicit operator bool() const { return result.has_value(); }
};

Run run(const std::vector<std::string>& argv, const CommandOptions& o) {
  auto start = Clock::now();
  // Less than 50 ms left is no time to start a tool in (a timeout that rounds down to the
  // millisecond ends a hair before the deadline).
  if (o.deadline - start < std::chrono::milliseconds(50)) return {true, std::nullopt};
  Run r{false, run_command(argv, o)};
  r.seconds = r.result ? r.result->seconds : std::chrono::duration<double>(Clock::now() - start).count();
  return r;
}

bool usable(const Run& r) { return r && r->exit_code == 0 && !r->timed_out && !r->truncated; }

std::string outcome(const std::string& tool, const Run& r, std::size_t found, const CommandOptions& o) {
  if (r.late) return tool + ": not run (the detection's deadline had passed)";
  if (!r) return tool + ": not installed";
  if (r->timed_out)
    return fmt::format("{}: gave no answer within {:.1f} s (killed){}", tool, r.seconds,
                       tool == "nvidia-smi" ? "; a GPU without persistence mode can be this slow to wake (nvidia-smi -pm 1)" : "");
  if (r->truncated) return fmt::format("{}: printed more than {} KiB (cut off, not read)", tool, o.max_bytes / 1024);
  if (found > 0) return fmt::format("{}: {} GPU{}", tool, found, found == 1 ? "" : "s");
  if (r->exit_code != 0) return fmt::format("{}: exited with status {}", tool, r->exit_code);
  return tool + ": reported no GPU qsel could read";
}

void add(Probe& p, std::vector<ReportedGpu> gpus) {
  for (auto& g : gpus) p.gpus.push_back(std::move(g));
}

void probe_nvidia(Probe& p, const CommandOptions& o) {
  auto r = run({"nvidia-smi", "--query-gpu=name,memory.total,compute_cap", "--format=csv,noheader"}, o);
  std::vector<ReportedGpu> gpus;
  if (usable(r)) gpus = parse_nvidia_smi_csv(r->out);
  if (r && gpus.empty() && !r->timed_out) {  // drivers before compute_cap was a query field: read the table
    auto t = run({"nvidia-smi"}, o);
    if (usable(t)) gpus = parse_nvidia_smi_table(t->out);
    if (!gpus.empty() || (t && t->timed_out)) r = t;
  }
  p.tried.push_back(outcome("nvidia-smi", r, gpus.size(), o));
  add(p, std::move(gpus));
}

void probe_amd(Probe& p, const CommandOptions& o) {
  auto r = run({"amd-smi", "static"}, o);
  std::vector<ReportedGpu> gpus;
  if (usable(r)) gpus = parse_amd_smi_static(r->out);
  p.tried.push_back(outcome("amd-smi", r, gpus.size(), o));
  if (gpus.empty()) {  // older ROCm: rocm-smi
    auto s = run({"rocm-smi", "--showproductname", "--showmeminfo", "vram", "--csv"}, o);
    if (usable(s)) gpus = parse_rocm_smi(s->out);
    p.tried.push_back(outcome("rocm-smi", s, gpus.size(), o));
  }
  add(p, std::move(gpus));
}

void probe_macos(Probe& p, const CommandOptions& o) {
  auto s = run({"sysctl", "machdep.cpu.brand_string", "hw.memsize"}, o);
  std::string sysctl_out = s && !s->timed_out && !s->truncated ? s->out : "";  // sysctl exits 1 when one key is unknown
  auto gpus = parse_apple(sysctl_out, "");
  p.tried.push_back(gpus.empty() ? outcome("sysctl", s, 0, o) : "sysctl: " + gpus[0].name);
  if (gpus.empty() || gpus[0].memory_mib <= 0) {
    auto prof = run({"system_profiler", "SPHardwareDataType", "SPDisplaysDataType"}, o);
    if (usable(prof)) gpus = parse_apple(sysctl_out, prof->out);
    p.tried.push_back(outcome("system_profiler", prof, gpus.size(), o));
  }
  add(p, std::move(gpus));
}

// The host's RAM: /proc/meminfo on Linux, else `sysctl -n hw.memsize` (macOS), which
// runs under the detection's deadline like every other tool.
void probe_ram(Probe& p, const CommandOptions& o, const std::string& meminfo) {
  if (auto gb = installed_ram_gb(meminfo)) {
    p.ram = InstalledRam{*gb, meminfo};
    return;
  }
  auto r = run({"sysctl", "-n", "hw.memsize"}, o);
  std::optional<double> gb;
  if (r && !r->timed_out && !r->truncated) gb = parse_sysctl_memsize_gb(r->out);
  if (gb) p.ram = InstalledRam{*gb, "sysctl hw.memsize"};
  else p.tried.push_back(outcome("sysctl hw.memsize", r, 0, o));
}

}  // namespace

Probe probe_gpus(const std::string& path, int timeout_ms, const std::string& meminfo) {
  Probe p;
  CommandOptions o;
  o.path = path;
  o.timeout_ms = std::max(1, timeout_ms * 3 / 4);
  o.deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
  probe_nvidia(p, o);
  probe_amd(p, o);
  if (p.gpus.empty()) probe_macos(p, o);
  probe_ram(p, o, meminfo);
  return p;
}

}  // namespace qsel
