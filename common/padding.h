// padding.h: how the common driver sorts any n with a stage that only sorts powers of two.
//
// The input is copied into an array of the next power of two, and the extra slots are filled
// with the value that sorts last: INT_MAX when sorting ascending, INT_MIN when descending (for
// floats, --type float, the bits 0x7fffffff and 0xffffffff: the NaNs at the two ends of
// totalOrder, float_order.h). After the sort the real values are the first n elements (a real
// INT_MAX ties with the padding, which changes nothing: equal values are indistinguishable), so
// only those n are copied back.
#pragma once

#include <climits>
#include <cstdint>

// The most keys a run sorts: 2^30 (4 GiB). The stages index keys with 32-bit unsigned integers
// and double a 32-bit `size` up to n in their loops; with n <= 2^30 neither can overflow.
constexpr std::uint64_t kMaxKeys = std::uint64_t{1} << 30;

// A sort across GPUs (--gpus P, v25_multi_gpu) holds up to kMaxKeys on each of up to kMaxGpus.
constexpr std::uint64_t kMaxGpus = 16;

// The smallest power of two >= n, for 1 <= n <= kMaxGpus x kMaxKeys.
inline std::uint64_t next_power_of_two(std::uint64_t n) {
  std::uint64_t power = 1;
  while (power < n) {
    power *= 2;
  }
  return power;
}

// The value that sorts after every real value in the requested order, of ints or of floats.
inline int padding_value(bool ascending, bool floats = false) {
  if (floats) {
    // +NaN with the largest payload, or -NaN with the largest payload (all 32 bits set).
    return ascending ? INT_MAX : -1;
  }
  return ascending ? INT_MAX : INT_MIN;
}
