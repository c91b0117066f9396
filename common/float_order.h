// float_order.h: IEEE 754 totalOrder for 32-bit floats, the order of --type float (the driver's
// reference, v11_float_keys) and of exercise 3 (docs/29_exercises.md): -NaN (larger payloads
// first), -infinity, negative numbers, -0.0, +0.0, positive numbers, +infinity, +NaN (smaller
// payloads first).
#pragma once

#include <cstdint>
#include <cstring>

// An unsigned integer that sorts in totalOrder: for a float with the sign bit set all 32 bits
// flipped (larger magnitudes come first), for one without only the sign bit (they come after).
inline std::uint32_t float_order_key(float value) {
  std::uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return (bits & 0x80000000u) != 0 ? ~bits : bits | 0x80000000u;
}

inline bool float_total_order_less(float a, float b) {
  return float_order_key(a) < float_order_key(b);
}

inline float float_from_bits(std::uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

// For a float's bits held in an int (as the driver holds every key): the int whose int order is
// the floats' totalOrder. A negative float's 31 lower bits are flipped, so that it stays negative
// and a larger magnitude becomes a smaller int; other floats stay as they are. Applied twice it
// gives the bits back, so floats sort as ints: their ranks, std::sort, the ranks back.
//   -NaN 0xffffffff -> INT_MIN,  -0.0 0x80000000 -> -1,  +0.0 -> 0,  +NaN 0x7fffffff -> INT_MAX
inline int float_rank(int bits) {
  const std::uint32_t word = static_cast<std::uint32_t>(bits);
  return static_cast<int>((word & 0x80000000u) != 0 ? word ^ 0x7fffffffu : word);
}
