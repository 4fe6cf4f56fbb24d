// The installed system RAM, for offload plans under --gpu auto: MemTotal from
// /proc/meminfo on Linux, `sysctl -n hw.memsize` on macOS. The parsers are pure so
// tests feed them captured text.
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace qsel {

// MemTotal in GB (1e9 bytes) from /proc/meminfo's text; nothing when the line is
// missing, malformed or out of range (1 GB to 64 TB).
std::optional<double> parse_meminfo_total_gb(std::string_view text);

// hw.memsize in GB from `sysctl -n hw.memsize` (bytes) or `sysctl hw.memsize`
// ("hw.memsize: 68719476736"); the same range.
std::optional<double> parse_sysctl_memsize_gb(std::string_view text);

// The same read from `path` (a small regular file, read as a stream: /proc files
// report a size of 0); nothing when it cannot be read.
std::optional<double> installed_ram_gb(const std::string& path = "/proc/meminfo");

struct InstalledRam {
  double gb = 0;
  std::string source;  // "/proc/meminfo" | "sysctl hw.memsize"
};

// This machine's RAM: /proc/meminfo, else sysctl (macOS); nothing when neither answers.
// --gpu auto reads it inside its detection's deadline instead (Probe::ram).
std::optional<InstalledRam> detect_installed_ram(int timeout_ms = 2000);

}  // namespace qsel
