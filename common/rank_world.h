// rank_world.h: what the ranks of a sort across GPUs settle among themselves, beside the sort
// that ranks.cpp runs and times: which GPU each takes, and whether their keys, together, came out
// in order (rank_world.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

// This process's place among the ranks.
struct World {
  unsigned rank = 0;
  unsigned ranks = 1;
};

// The device this rank takes; throws FatalError(kExitCudaError) where its machine has fewer GPUs
// than ranks, or where it would share one with another rank.
int local_device(const World &world);

// After the sort: "" on every rank when the ranks' keys, in rank order, are the input's keys in
// order; else, on rank 0, what is wrong. `share` holds this rank's `real` input keys, `sorted` its
// first `real` keys after the sort.
std::string check_ranks(const World &world, const std::vector<int> &share, const int *sorted,
                        std::uint64_t real, bool ascending);

// The tests' way to see check_ranks fail: breaks a sorted result as COURSE_BREAK_SORT asks.
void break_if_asked(const World &world, int *sorted, std::uint64_t real, bool ascending);
