#include "qsel/core/parallel.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace qsel {

void parallel_for(std::size_t n, unsigned threads, const std::function<void(std::size_t)>& work) {
  std::atomic<std::size_t> next{0};
  std::mutex mutex;
  std::exception_ptr failure;
  auto run = [&] {
    try {
      for (std::size_t i; (i = next.fetch_add(1)) < n;) work(i);
    } catch (...) {
      std::lock_guard lock(mutex);
      if (!failure) failure = std::current_exception();
      next = n;
    }
  };
  std::vector<std::thread> helpers;
  std::size_t wanted = std::min<std::size_t>(std::max(threads, 1u), std::max<std::size_t>(n, 1));
  try {
    for (std::size_t t = 1; t < wanted; ++t) helpers.emplace_back(run);
  } catch (const std::system_error&) {  // no more threads: the ones started and the caller do the work
  }
  run();
  for (auto& h : helpers) h.join();
  if (failure) std::rethrow_exception(failure);
}

unsigned threads_for(std::size_t items, std::size_t min_items, unsigned cap) {
  if (items < min_items) return 1;
  return std::clamp(std::thread::hardware_concurrency(), 1u, std::max(cap, 1u));
}

}  // namespace qsel
