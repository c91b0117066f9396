// cpu suite, v11_float_keys: ordered_bits, the unsigned number its kernels compare for a key.
//
// With `floats`, the order of ordered_bits must be IEEE 754 totalOrder (common/float_order.h,
// itself checked against a list of floats by the cpu test float_order): -NaN with the largest
// payload first, then -inf, the negative numbers, -0.0, +0.0, the positive numbers, +inf and +NaN
// with the largest payload last. key_from_ordered must give back every bit pattern. Without it,
// the order must be that of ints, as v9 and v10 compare them. And the items of float keys must
// keep their positions as the items of ints do.
#include <doctest/doctest.h>

#include <climits>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "bitonic_index.h"
#include "float_order.h"

namespace {

int bits_of(float value) {
  std::uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return static_cast<int>(bits);
}

}  // namespace

TEST_CASE("floats in totalOrder, the table of ordered_bits's comment included") {
  const float inf = std::numeric_limits<float>::infinity();
  const float denormal = std::numeric_limits<float>::denorm_min();
  const float largest = std::numeric_limits<float>::max();
  // In increasing totalOrder.
  const std::vector<int> increasing = {static_cast<int>(0xffffffffu),
                                       static_cast<int>(0xffc00000u),
                                       bits_of(-inf),
                                       bits_of(-largest),
                                       bits_of(-1.0f),
                                       bits_of(-denormal),
                                       bits_of(-0.0f),
                                       bits_of(0.0f),
                                       bits_of(denormal),
                                       bits_of(1.0f),
                                       bits_of(largest),
                                       bits_of(inf),
                                       0x7fc00000,
                                       0x7fffffff};
  for (std::size_t i = 0; i < increasing.size(); ++i) {
    for (std::size_t j = 0; j < increasing.size(); ++j) {
      INFO("positions " << i << " and " << j);
      CHECK((ordered_bits(increasing[i], true) < ordered_bits(increasing[j], true)) == (i < j));
    }
  }
  // The examples of the comment.
  CHECK(ordered_bits(static_cast<int>(0xffc00000u), true) == 0x003fffffu);
  CHECK(ordered_bits(bits_of(-inf), true) == 0x007fffffu);
  CHECK(ordered_bits(bits_of(-1.0f), true) == 0x407fffffu);
  CHECK(ordered_bits(bits_of(-0.0f), true) == 0x7fffffffu);
  CHECK(ordered_bits(bits_of(0.0f), true) == 0x80000000u);
  CHECK(ordered_bits(bits_of(1.0f), true) == 0xbf800000u);
  CHECK(ordered_bits(bits_of(inf), true) == 0xff800000u);
  CHECK(ordered_bits(0x7fc00000, true) == 0xffc00000u);
}

TEST_CASE("ordered_bits agrees with the reference order on bit patterns across the range") {
  for (std::uint32_t a = 5; a < 0xffffffffu - 0x00e00197u; a += 0x00e00197u) {
    const int key = static_cast<int>(a);
    CHECK(key_from_ordered(ordered_bits(key, true), true) == key);
    CHECK(key_from_ordered(ordered_bits(key, false), false) == key);
    for (std::uint32_t b = 3; b < 0xffffffffu - 0x09000193u; b += 0x09000193u) {
      const int other = static_cast<int>(b);
      INFO("bits " << a << " and " << b);
      CHECK((ordered_bits(key, true) < ordered_bits(other, true)) ==
            float_total_order_less(float_from_bits(a), float_from_bits(b)));
      // Ints keep the order of v9 and v10.
      CHECK((ordered_bits(key, false) < ordered_bits(other, false)) == (key < other));
    }
  }
  CHECK(ordered_bits(INT_MIN, false) == 0u);
  CHECK(ordered_bits(INT_MAX, false) == 0xffffffffu);
}

TEST_CASE("an item of a float gives back its bits and its position, ties by position") {
  for (const bool ascending : {true, false}) {
    for (std::uint32_t bits : {0x00000000u, 0x80000000u, 0x7fc00000u, 0xffc00000u, 0x3f800000u}) {
      for (unsigned position : {0u, 7u, (1u << 30) - 1}) {
        const Item item = make_item(static_cast<int>(bits), position, ascending, true);
        CHECK(item_key(item, true) == static_cast<int>(bits));
        CHECK(item_position(item, ascending) == static_cast<int>(position));
      }
    }
    // -0.0 and +0.0 are different keys in totalOrder: -0.0 first, whatever the positions.
    const Item negative_zero = make_item(bits_of(-0.0f), 9, ascending, true);
    const Item positive_zero = make_item(bits_of(0.0f), 1, ascending, true);
    CHECK(negative_zero < positive_zero);
  }
}
