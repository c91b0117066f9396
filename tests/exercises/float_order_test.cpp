// cpu suite: the reference order of --type float and of exercise 3 (common/float_order.h) is
// IEEE 754 totalOrder, so that the driver and the exercise's check accept exactly the right
// answers.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "float_order.h"

TEST_CASE("totalOrder from the negative NaNs to the positive ones") {
  const float inf = std::numeric_limits<float>::infinity();
  const float denormal = std::numeric_limits<float>::denorm_min();
  // In increasing order: -NaN with a large payload, -NaN with a small one, -inf, -1, -denormal,
  // -0, +0, +denormal, 1, +inf, +NaN with a small payload, +NaN with a large one.
  const std::vector<float> increasing = {float_from_bits(0xffffffffu),
                                         float_from_bits(0xffc00001u),
                                         -inf,
                                         -1.0f,
                                         -denormal,
                                         -0.0f,
                                         0.0f,
                                         denormal,
                                         1.0f,
                                         inf,
                                         float_from_bits(0x7fc00001u),
                                         float_from_bits(0x7fffffffu)};
  for (std::size_t i = 0; i < increasing.size(); ++i) {
    for (std::size_t j = 0; j < increasing.size(); ++j) {
      INFO("positions " << i << " and " << j);
      CHECK(float_total_order_less(increasing[i], increasing[j]) == (i < j));
    }
  }
}

TEST_CASE("numbers keep their usual order, and the key is a bijection on bit patterns") {
  for (float a = -3.0f; a < 3.0f; a += 0.37f) {
    for (float b = -3.0f; b < 3.0f; b += 0.41f) {
      if (a != b) {
        CHECK(float_total_order_less(a, b) == (a < b));
      }
    }
  }
  for (std::uint32_t bits = 0; bits < 0xffffffffu - 0x01000193u; bits += 0x01000193u) {
    const std::uint32_t key = float_order_key(float_from_bits(bits));
    // Undo the mapping: the key names the bit pattern it came from.
    const std::uint32_t back = (key & 0x80000000u) != 0 ? key & 0x7fffffffu : ~key;
    CHECK(back == bits);
  }
}

TEST_CASE("float_rank orders a float's bits as ints in totalOrder, and undoes itself") {
  for (std::uint32_t a = 0; a < 0xffffffffu - 0x00f00195u; a += 0x00f00195u) {
    const int a_bits = static_cast<int>(a);
    CHECK(float_rank(float_rank(a_bits)) == a_bits);
    for (std::uint32_t b = 7; b < 0xffffffffu - 0x0a000193u; b += 0x0a000193u) {
      const int b_bits = static_cast<int>(b);
      INFO("bits " << a << " and " << b);
      CHECK((float_rank(a_bits) < float_rank(b_bits)) ==
            float_total_order_less(float_from_bits(a), float_from_bits(b)));
    }
  }
}
