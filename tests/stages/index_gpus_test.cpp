// cpu suite, v25_multi_gpu: the schedule of a sort across GPUs, played on the host. Every GPU is
// a vector of n keys; the test runs the very functions bitonic_sort_gpus calls
// (for_each_exchange, partner_rank, group_ascending, keeps_smaller_half) for 1 .. 16 simulated
// GPUs and checks that every key lands in order. It also holds the exchanges to the reference
// network's steps, and the merge's launch plan and the launch counts to their formulas.
#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "bitonic_index.h"
#include "keys.h"
#include "launch_steps.h"
#include "reference_network.h"

namespace {

using Gpus = std::vector<std::vector<int>>;

// Whether keys rise then fall, or fall then rise, taken round the end (a rotation of such a
// sequence): what a bitonic merge needs. Counted as changes of direction, ties skipped.
bool is_bitonic(const std::vector<int> &keys) {
  std::vector<int> distinct;
  for (const int key : keys) {
    if (distinct.empty() || distinct.back() != key) {
      distinct.push_back(key);
    }
  }
  while (distinct.size() > 1 && distinct.front() == distinct.back()) {
    distinct.pop_back();
  }
  const std::size_t count = distinct.size();
  int turns = 0;
  for (std::size_t i = 0; i < count && count > 2; ++i) {
    const int before = distinct[(i + count - 1) % count];
    const int after = distinct[(i + 1) % count];
    const bool peak = distinct[i] > before && distinct[i] > after;
    const bool valley = distinct[i] < before && distinct[i] < after;
    turns += peak || valley;
  }
  return turns <= 2;
}

// The steps a GPU's merge runs (strides n / 2 .. 1), one compare-and-swap at a time.
void host_merge(std::vector<int> &keys, bool ascending) {
  for (std::size_t stride = keys.size() / 2; stride > 0; stride /= 2) {
    for (std::size_t i = 0; i < keys.size(); ++i) {
      if ((i & stride) == 0 && (keys[i] > keys[i + stride]) == ascending &&
          keys[i] != keys[i + stride]) {
        std::swap(keys[i], keys[i + stride]);
      }
    }
  }
}

// bitonic_sort_gpus on the host: the local sorts, then each exchange and merge.
void play_schedule(Gpus &gpus, bool ascending) {
  const unsigned count = static_cast<unsigned>(gpus.size());
  for (unsigned g = 0; g < count; ++g) {
    if (group_ascending(g, 1, ascending)) {
      std::sort(gpus[g].begin(), gpus[g].end());
    } else {
      std::sort(gpus[g].begin(), gpus[g].end(), std::greater<int>());
    }
  }
  for_each_exchange(count, [&](const Exchange &exchange) {
    // Every GPU receives what its partner held before the exchange.
    const Gpus sent = gpus;
    for (unsigned g = 0; g < count; ++g) {
      const std::vector<int> &received = sent[partner_rank(g, exchange.rank_stride)];
      const bool up = group_ascending(g, exchange.span, ascending);
      const bool smaller = keeps_smaller_half(g, exchange.rank_stride, up);
      for (std::size_t i = 0; i < received.size(); ++i) {
        gpus[g][i] =
            smaller ? std::min(gpus[g][i], received[i]) : std::max(gpus[g][i], received[i]);
      }
      if (exchange.rank_stride == 1) {
        INFO("GPU " << g << " before the merge of a span of " << exchange.span);
        REQUIRE(is_bitonic(gpus[g]));
        host_merge(gpus[g], up);
      }
    }
  });
}

}  // namespace

TEST_CASE("the schedule sorts across 1 to 16 simulated GPUs") {
  for (unsigned count = 1; count <= 16; count *= 2) {
    for (const unsigned n : {1u, 2u, 8u, 64u, 1024u}) {
      for (Distribution distribution : all_distributions()) {
        for (const bool ascending : {true, false}) {
          const std::vector<int> keys =
              generate_keys(distribution, std::size_t{count} * n, count * 7919 + n);
          Gpus gpus(count);
          for (unsigned g = 0; g < count; ++g) {
            gpus[g].assign(keys.begin() + std::size_t{g} * n,
                           keys.begin() + std::size_t{g + 1} * n);
          }
          INFO(count << " GPUs of " << n << " keys, " << distribution_name(distribution) << ", "
                     << (ascending ? "ascending" : "descending"));
          play_schedule(gpus, ascending);
          std::vector<int> result;
          for (const std::vector<int> &part : gpus) {
            result.insert(result.end(), part.begin(), part.end());
          }
          std::vector<int> expected = keys;
          std::sort(expected.begin(), expected.end());
          if (!ascending) {
            std::reverse(expected.begin(), expected.end());
          }
          CHECK(result == expected);
        }
      }
    }
  }
}

TEST_CASE("the exchanges are the network's steps whose stride spans GPUs, in order") {
  for (unsigned count = 1; count <= 16; count *= 2) {
    for (const unsigned n : {1u, 4u, 32u}) {
      std::vector<std::pair<std::uint32_t, std::uint32_t>> across;
      for (const auto &[size, stride] : network_steps(count * n)) {
        if (stride >= n) {
          across.emplace_back(size, stride);
        }
      }
      std::vector<std::pair<std::uint32_t, std::uint32_t>> exchanges;
      for_each_exchange(count, [&](const Exchange &exchange) {
        exchanges.emplace_back(exchange.span * n, exchange.rank_stride * n);
      });
      INFO(count << " GPUs of " << n << " keys");
      CHECK(exchanges == across);
    }
  }
}

TEST_CASE("a GPU's direction and side are the network's for its keys") {
  // GPU g holds keys g n .. (g + 1) n - 1; a merge of `span` GPUs is a size of span n keys.
  const unsigned n = 64;
  for (unsigned g = 0; g < 16; ++g) {
    for (unsigned span = 1; span <= 16; span *= 2) {
      for (const bool ascending : {true, false}) {
        const bool up = group_ascending(g, span, ascending);
        CHECK(up == sorts_ascending(g * n, span * n, ascending));
        for (unsigned rank_stride = 1; rank_stride < span; rank_stride *= 2) {
          // The lower of the pair, by index, keeps the smaller keys when its merge ascends.
          const bool lower = g < partner_rank(g, rank_stride);
          CHECK(keeps_smaller_half(g, rank_stride, up) == (lower == up));
          CHECK(partner_rank(partner_rank(g, rank_stride), rank_stride) == g);
        }
      }
    }
  }
}

TEST_CASE("a merge runs the strides n / 2 .. 1 of size n, in launches_per_merge(n) launches") {
  for (unsigned q = 0; q <= 30; ++q) {
    const unsigned n = 1u << q;
    unsigned long long count = 0;
    bool named = false;
    const auto steps =
        launch_steps([n](auto visit) { for_each_merge_launch(n, visit); }, count, named);
    INFO("n = 2^" << q);
    CHECK(named);
    CHECK(count == launches_per_merge(n));
    // A tile or less: one block_sort, every step of the sort. More: the merge's steps alone.
    std::vector<std::pair<std::uint32_t, std::uint32_t>> expected;
    for (const auto &[size, stride] : network_steps(n)) {
      if (n <= kTileSize || size == n) {
        expected.emplace_back(size, stride);
      }
    }
    CHECK(steps == expected);
  }
}

TEST_CASE("launches_per_gpus_sort counts the sort, the exchanges and the merges of every GPU") {
  for (unsigned count = 1; count <= 16; count *= 2) {
    for (unsigned q = 0; q <= 30; q += 3) {
      const unsigned n = 1u << q;
      unsigned long long launches = 0;
      for (unsigned g = 0; g < count; ++g) {
        launches += launches_per_sort(n);
        for_each_exchange(count, [&](const Exchange &exchange) {
          // keep_half, then after a span's last exchange the merge's launches.
          launches += 1 + (exchange.rank_stride == 1 ? launches_per_merge(n) : 0);
        });
      }
      INFO(count << " GPUs of 2^" << q << " keys");
      CHECK(launches_per_gpus_sort(n, count) == launches);
    }
  }
}
