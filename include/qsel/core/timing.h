// Wall-clock timings for -v logs.
#pragma once
#include <chrono>

namespace qsel {

inline long long elapsed_ms(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - since).count();
}

}  // namespace qsel
