// The installed system RAM, for offload plans under --gpu auto: MemTotal from
// /proc/meminfo on Linux. The parser is pure so tests feed it captured text.
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace qsel {

// MemTotal in GB (1e9 bytes) from /proc/meminfo's text; nothing when the line is
// missing, malformed or out of range (1 GB to 64 TB).
std::optional<double> parse_meminfo_total_gb(std::string_view text);

// The same read from `path` (a small regular file); nothing when it cannot be read.
std::optional<double> installed_ram_gb(const std::string& path = "/proc/meminfo");

}  // namespace qsel
