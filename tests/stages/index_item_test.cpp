// cpu suite, v9_argsort: the items its kernels sort, a key and its position in one 64-bit word.
//
// Items must compare as (key, position) pairs in the order the network runs: ascending, the
// smaller key first and, between equal keys, the smaller position first; descending (the
// network puts larger items first), the larger key first and, between equal keys, still the
// smaller position first, so that the argsort is stable in both orders. Every key and position
// must come back out of its item unchanged.
#include <doctest/doctest.h>

#include <algorithm>
#include <climits>
#include <functional>
#include <tuple>
#include <vector>

#include "bitonic_index.h"

namespace {

const int kKeys[] = {INT_MIN, INT_MIN + 1, -2, -1, 0, 1, 2, INT_MAX - 1, INT_MAX};
const unsigned kPositions[] = {0u, 1u, 2u, 1000u, (1u << 30) - 1};

struct Pair {
  int key;
  unsigned position;
};

}  // namespace

TEST_CASE("an item gives back its key and its position") {
  for (const bool ascending : {true, false}) {
    for (int key : kKeys) {
      for (unsigned position : kPositions) {
        const Item item = make_item(key, position, ascending);
        CHECK(item_key(item) == key);
        CHECK(item_position(item, ascending) == static_cast<int>(position));
      }
    }
  }
}

TEST_CASE("items sort as (key, position): by key in the requested order, ties by position") {
  std::vector<Pair> pairs;
  for (int key : kKeys) {
    for (unsigned position : kPositions) {
      pairs.push_back({key, position});
    }
  }
  for (const bool ascending : {true, false}) {
    std::vector<Item> items;
    for (const Pair &pair : pairs) {
      items.push_back(make_item(pair.key, pair.position, ascending));
    }
    // The network's order: ascending, smaller items first; descending, larger items first.
    if (ascending) {
      std::sort(items.begin(), items.end());
    } else {
      std::sort(items.begin(), items.end(), std::greater<Item>());
    }
    std::vector<Pair> expected = pairs;
    std::sort(expected.begin(), expected.end(), [&](const Pair &a, const Pair &b) {
      if (a.key != b.key) {
        return ascending ? a.key < b.key : a.key > b.key;
      }
      return a.position < b.position;
    });
    INFO((ascending ? "ascending" : "descending"));
    for (std::size_t i = 0; i < items.size(); ++i) {
      CHECK(item_key(items[i]) == expected[i].key);
      CHECK(item_position(items[i], ascending) == static_cast<int>(expected[i].position));
    }
  }
}

TEST_CASE("chapter 11's example: the array 5, -1, 5, 2 sorted as items") {
  const int keys[] = {5, -1, 5, 2};
  const Item expected_items[] = {0x8000000500000000ull, 0x7fffffff00000001ull,
                                 0x8000000500000002ull, 0x8000000200000003ull};
  std::vector<Item> items;
  for (unsigned position = 0; position < 4; ++position) {
    items.push_back(make_item(keys[position], position, true));
    CHECK(items.back() == expected_items[position]);
  }
  std::sort(items.begin(), items.end());
  const Item sorted_items[] = {0x7fffffff00000001ull, 0x8000000200000003ull, 0x8000000500000000ull,
                               0x8000000500000002ull};
  const int keys_out[] = {-1, 2, 5, 5};
  const int indices_out[] = {1, 3, 0, 2};
  for (unsigned i = 0; i < 4; ++i) {
    CHECK(items[i] == sorted_items[i]);
    CHECK(item_key(items[i]) == keys_out[i]);
    CHECK(item_position(items[i], true) == indices_out[i]);
  }
  // Descending: the 5 of position 0 still comes before the 5 of position 2.
  items.clear();
  for (unsigned position = 0; position < 4; ++position) {
    items.push_back(make_item(keys[position], position, false));
  }
  std::sort(items.begin(), items.end(), std::greater<Item>());
  const int descending_indices[] = {0, 2, 3, 1};
  for (unsigned i = 0; i < 4; ++i) {
    CHECK(item_position(items[i], false) == descending_indices[i]);
  }
}
