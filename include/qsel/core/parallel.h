// Work spread over threads: the loader, the graph and the checks each hand out
// indices to a few threads and need the same result as one thread would give.
#pragma once
#include <cstddef>
#include <functional>

namespace qsel {

// Calls work(i) once for every i in [0, n), on `threads` threads (the caller's
// thread is one of them; 0 or 1 means the caller alone). Indices are handed out
// in increasing order. When a call throws, no new index is handed out and the
// first exception is rethrown once every thread has stopped.
void parallel_for(std::size_t n, unsigned threads, const std::function<void(std::size_t)>& work);

// One thread per core (at most `cap`) when there are at least `min_items`
// items to share, else 1.
unsigned threads_for(std::size_t items, std::size_t min_items, unsigned cap = 16);

}  // namespace qsel
