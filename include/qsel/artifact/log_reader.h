// An engine's log, read line by line without holding it: a regular file or
// standard input ("-"), lines longer than 64 KiB cut (and counted), at most
// 4 GiB read. Only what the caller keeps stays in memory.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace qsel {

struct LogScan {
  std::size_t lines = 0;
  std::uint64_t bytes = 0;
  std::size_t cut = 0;        // lines longer than the cap
  bool stopped = false;       // the size cap was reached
};

constexpr std::size_t kMaxLogLine = 64 * 1024;
constexpr std::uint64_t kMaxLogBytes = 4ull << 30;

// Calls `on_line(number, text)` for every line (1-based; text without the end of
// line), until the end or the first read that reaches `max_bytes` (LogScan::stopped).
LogScan scan_log(const std::string& path, const std::function<void(std::size_t, std::string_view)>& on_line,
                 std::uint64_t max_bytes = kMaxLogBytes);

}  // namespace qsel
