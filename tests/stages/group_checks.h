// group_checks.h: what the cpu tests of the group passes share (index_groups_test.cpp for
// v13_any_bits, index_span_test.cpp from v14_span on): the word of shared memory a register
// reaches, whether an exchange is free of bank conflicts, and whether a step's comparators are
// the reference network's. Each test includes its stage's bitonic_index.h first.
#pragma once

#include <algorithm>
#include <set>
#include <vector>

#include "bitonic_index.h"
#include "reference_network.h"

// Register k's word of shared memory in exchange_group: its thread's word XOR that of k << low.
inline unsigned word_of(unsigned t, unsigned k, unsigned low) {
  return group_word(group_slot(t, 0, low)) ^ group_word(k << low);
}

// Whether the 32 lanes of each warp reach 32 different banks, for every register, in layout
// `low` of a group of `threads` threads.
inline bool conflict_free(unsigned low, unsigned threads) {
  for (unsigned warp = 0; warp < threads; warp += 32) {
    for (unsigned k = 0; k < kGroupKeys; ++k) {
      std::set<unsigned> banks;
      for (unsigned lane = 0; lane < 32 && warp + lane < threads; ++lane) {
        banks.insert(word_of(warp + lane, k, low) % 32);
      }
      if (banks.size() != std::min(32u, threads)) {
        return false;
      }
    }
  }
  return true;
}

// Whether `found`, the comparators a pass made in the step (size, stride) on n keys in arrays
// of `segment` keys, are that step of the reference network of every array, each exactly once,
// in its direction.
inline bool same_as_network(std::vector<Comparator> found, unsigned n, unsigned segment,
                            unsigned size, unsigned stride, bool ascending) {
  std::sort(found.begin(), found.end(),
            [](const Comparator &a, const Comparator &b) { return a.lower < b.lower; });
  std::vector<Comparator> expected;
  for (unsigned start = 0; start < n; start += segment) {
    for (const Comparator &c : network_step_comparators(segment, size, stride, ascending)) {
      expected.push_back({start + c.lower, start + c.upper, c.ascending});
    }
  }
  bool same = found.size() == expected.size();
  for (std::size_t c = 0; same && c < expected.size(); ++c) {
    same = found[c].lower == expected[c].lower && found[c].upper == expected[c].upper &&
        found[c].ascending == expected[c].ascending;
  }
  return same;
}
