// Size arithmetic on numbers a stranger's file declared (tensor dimensions,
// element counts, byte sizes, offsets): the result, or nothing where the true
// value would not fit in 64 bits. The GGUF and safetensors readers size every
// tensor through these, so a shape such as [2^31, 2^31] of F32 is refused
// instead of wrapping to 0 bytes.
#pragma once
#include <cstdint>
#include <optional>

namespace qsel {

// Elements in one tensor, for both readers (2^50 F32 is 4 PiB; the largest real
// tensors hold about 2^32).
inline constexpr std::uint64_t kMaxTensorElements = 1ull << 50;

inline std::optional<std::uint64_t> checked_mul(std::uint64_t a, std::uint64_t b) {
  std::uint64_t out = 0;
  if (__builtin_mul_overflow(a, b, &out)) return std::nullopt;
  return out;
}

inline std::optional<std::uint64_t> checked_add(std::uint64_t a, std::uint64_t b) {
  std::uint64_t out = 0;
  if (__builtin_add_overflow(a, b, &out)) return std::nullopt;
  return out;
}

// The product of `dims` (a tensor's element count), or nothing when it
// overflows or passes `limit`.
template <class Range>
std::optional<std::uint64_t> checked_product(const Range& dims, std::uint64_t limit) {
  std::uint64_t n = 1;
  for (std::uint64_t d : dims) {
    auto next = checked_mul(n, d);
    if (!next || *next > limit) return std::nullopt;
    n = *next;
  }
  return n;
}

// Bytes of `elements` values of `bits` bits each, rounded up to whole bytes
// (safetensors' F4 and F6 pack below a byte); nothing on overflow.
inline std::optional<std::uint64_t> checked_packed_bytes(std::uint64_t elements, std::uint64_t bits) {
  auto total = checked_mul(elements, bits);
  if (!total) return std::nullopt;
  return *total / 8 + (*total % 8 != 0);
}

}  // namespace qsel
