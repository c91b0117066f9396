// float_order.h: IEEE 754 totalOrder for 32-bit floats, the order of exercise 3
// (docs/14_exercises.md): -NaN (larger payloads first), -infinity, negative numbers, -0.0,
// +0.0, positive numbers, +infinity, +NaN (smaller payloads first).
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
