#include <catch2/catch.hpp>

#include <atomic>
#include <stdexcept>
#include <vector>

#include "qsel/core/parallel.h"

using qsel::parallel_for;

TEST_CASE("parallel_for: every index once, on any number of threads", "[core][parallel]") {
  for (unsigned threads : {0u, 1u, 2u, 7u, 64u}) {
    for (std::size_t n : {0u, 1u, 5u, 1000u}) {
      std::vector<std::atomic<int>> seen(n);
      parallel_for(n, threads, [&](std::size_t i) { seen[i].fetch_add(1); });
      for (std::size_t i = 0; i < n; ++i) REQUIRE(seen[i].load() == 1);
    }
  }
}

TEST_CASE("parallel_for: the first exception comes back after every thread stops", "[core][parallel]") {
  std::atomic<int> calls{0};
  CHECK_THROWS_WITH(parallel_for(10000, 4,
                                 [&](std::size_t i) {
                                   calls.fetch_add(1);
                                   if (i == 10) throw std::runtime_error("item 10");
                                 }),
                    "item 10");
  calls = 0;
  CHECK_THROWS(parallel_for(100, 1, [&](std::size_t i) {
    calls.fetch_add(1);
    if (i == 10) throw std::runtime_error("item 10");
  }));
  CHECK(calls.load() == 11);  // no new work once an item failed
}

TEST_CASE("threads_for: one thread below the threshold, at least one above", "[core][parallel]") {
  CHECK(qsel::threads_for(10, 4096) == 1u);
  CHECK(qsel::threads_for(5000, 4096) >= 1u);
  CHECK(qsel::threads_for(5000, 4096, 1) == 1u);
}
