#include "qsel/core/disposal.h"

#include <catch2/catch.hpp>

namespace {

struct Counted {
  int* destroyed;
  explicit Counted(int* d) : destroyed(d) {}
  Counted(Counted&& o) noexcept : destroyed(o.destroyed) { o.destroyed = nullptr; }
  ~Counted() {
    if (destroyed) ++*destroyed;
  }
};

}  // namespace

TEST_CASE("disposal: off (tests, libraries), a disposed value is destroyed by its owner", "[disposal]") {
  int destroyed = 0;
  {
    Counted c(&destroyed);
    qsel::dispose(std::move(c));
    CHECK(destroyed == 0);
  }
  CHECK(destroyed == 1);
}

TEST_CASE("disposal: on (the command line), a disposed value is parked until the exit", "[disposal]") {
  int destroyed = 0;
  qsel::keep_until_exit(true);
  {
    Counted c(&destroyed);
    qsel::dispose(std::move(c));
  }
  qsel::keep_until_exit(false);
  CHECK(destroyed == 0);  // moved into the parked list, which is never freed
  CHECK_FALSE(qsel::keeping_until_exit());
}
