// An engine's log, read line by line without holding it: a regular file or
// standard input ("-"), lines longer than 64 KiB cut (and counted), at most
// 4 GiB read and for at most 20 s (a stream that never ends, or goes quiet,
// still gets an answer from what it said). Only what the caller keeps stays in memory.
#pragma once
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace qsel {

struct LogScan {
  std::size_t lines = 0;
  std::uint64_t bytes = 0;
  std::size_t cut = 0;        // lines longer than the cap
  bool stopped = false;       // the size cap or the time cap was reached
  bool stopped_by_time = false;
};

constexpr std::size_t kMaxLogLine = 64 * 1024;
constexpr std::uint64_t kMaxLogBytes = 4ull << 30;
constexpr std::chrono::seconds kMaxLogTime{20};

// Calls `on_line(number, text)` for every line (1-based; text without the end of
// line), until the end, the first read that reaches `max_bytes`, or `max_time`
// after it started, waiting for input included (LogScan::stopped).
LogScan scan_log(const std::string& path, const std::function<void(std::size_t, std::string_view)>& on_line,
                 std::uint64_t max_bytes = kMaxLogBytes, std::chrono::milliseconds max_time = kMaxLogTime);

}  // namespace qsel
