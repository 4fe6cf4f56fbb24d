#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <vector>

#include "qsel/core/checked.h"

using namespace qsel;

TEST_CASE("checked: products and sums that would wrap at 2^64 are nothing, the rest exact", "[core][checked]") {
  CHECK(checked_mul(1ull << 32, 1ull << 31) == (1ull << 63));
  CHECK(!checked_mul(1ull << 32, 1ull << 32));
  CHECK(checked_mul(0, ~0ull) == 0u);
  CHECK(checked_add(~0ull - 1, 1) == ~0ull);
  CHECK(!checked_add(~0ull, 1));
}

TEST_CASE("checked: a tensor's element count stops at its limit, packed bytes round up", "[core][checked]") {
  CHECK(checked_product(std::vector<std::uint64_t>{2147483648ull, 2147483648ull}, ~0ull) == (1ull << 62));
  CHECK(!checked_product(std::vector<std::uint64_t>{2147483648ull, 2147483648ull}, 1ull << 50));
  CHECK(!checked_product(std::array<std::uint64_t, 3>{1ull << 40, 1ull << 40, 0}, ~0ull));  // wraps before the 0
  CHECK(checked_product(std::vector<std::uint64_t>{}, 1) == 1u);
  CHECK(checked_packed_bytes(3, 4) == 2u);   // three F4 values: 12 bits, 2 bytes
  CHECK(checked_packed_bytes(4, 6) == 3u);   // four F6 values: 24 bits
  CHECK(checked_packed_bytes(1ull << 60, 8) == (1ull << 60));
  CHECK(!checked_packed_bytes(1ull << 61, 8));  // 2^64 bits
  CHECK(!checked_packed_bytes(1ull << 62, 32));  // [2^31, 2^31] F32: 2^64 bytes, which wrapped to 0
}
