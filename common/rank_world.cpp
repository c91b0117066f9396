// rank_world.cpp: what the ranks of a sort across GPUs settle among themselves, beside the sort
// (ranks.cpp): which GPU each takes, and, after the sort, whether their keys together are the
// input's keys in order. Both speak MPI and neither times anything; the check is the rank form's
// validation, as validate.cpp is the one-process form's.
#include "rank_world.h"

// MPI's C interface alone: its C++ bindings are deprecated, and their headers warn.
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include <algorithm>
#include <cstdlib>
#include <utility>

#include "cuda_check.h"
#include "device.h"
#include "errors.h"
#include "padding.h"

// The device of this rank: its place among the ranks that share its machine (MPI's shared-memory
// split), so that the machine's first and second ranks take devices 0 and 1; or device 0 where
// the rank sees one GPU alone (a launcher that gives each rank its own, by CUDA_VISIBLE_DEVICES).
// Ranks of a machine that see one and the same GPU (mpirun -np 2 where there is one) would reach
// ncclCommInitRank, which refuses two ranks a GPU with a line of NCCL's own; their GPUs' UUIDs
// show it first, and each such rank but the first on that GPU may say so (the first to fail stops
// them all: ranks.cpp, stop_every_rank).
int local_device(const World &world) {
  MPI_Comm machine = MPI_COMM_NULL;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, static_cast<int>(world.rank),
                      MPI_INFO_NULL, &machine);
  int place = 0, places = 1;
  MPI_Comm_rank(machine, &place);
  MPI_Comm_size(machine, &places);
  const int usable = usable_device_count();
  if (usable == 0) {
    select_device(0);  // Says in one line that there is no device at all.
  }
  const std::string start_fewer = "start at most one rank a GPU";
  if (usable > 1 && place >= usable) {
    // A rank past the last GPU it sees (the devices its CUDA_VISIBLE_DEVICES leaves it, the
    // machine's where that is not set); each such rank may say so before the first to fail
    // stops them all.
    throw FatalError(kExitCudaError,
                     "it sees " + std::to_string(usable) + " usable CUDA devices for the " +
                         std::to_string(places) + " ranks of its machine: " + start_fewer);
  }
  const int device = usable == 1 ? 0 : place;
  cudaDeviceProp properties{};
  CUDA_CHECK(cudaGetDeviceProperties(&properties, device));
  // Each rank of the machine learns the others' GPUs (by UUID) and world ranks, in place order.
  std::vector<cudaUUID_t> uuids(static_cast<std::size_t>(places));
  MPI_Allgather(&properties.uuid, sizeof(cudaUUID_t), MPI_BYTE, uuids.data(), sizeof(cudaUUID_t),
                MPI_BYTE, machine);
  const int rank = static_cast<int>(world.rank);
  std::vector<int> ranks(static_cast<std::size_t>(places));
  MPI_Allgather(&rank, 1, MPI_INT, ranks.data(), 1, MPI_INT, machine);
  MPI_Comm_free(&machine);
  // The first rank on a GPU keeps it; each later one names the first and stops.
  for (int other = 0; other < place; ++other) {
    if (std::equal(uuids[other].bytes, uuids[other].bytes + sizeof(cudaUUID_t),
                   properties.uuid.bytes)) {
      throw FatalError(
          kExitCudaError,
          "it sees the same GPU as rank " + std::to_string(ranks[other]) + ": " + start_fewer);
    }
  }
  return device;
}

namespace {

// A 64-bit mix of a key (SplitMix64's finalizer): a sum of these over a multiset of keys changes
// when a key is lost, doubled or changed, unless by a chance of about 2^-64.
std::uint64_t mix(int key) {
  std::uint64_t z = static_cast<std::uint32_t>(key) + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

std::uint64_t checksum(const int *keys, std::uint64_t count) {
  std::uint64_t sum = 0;
  for (std::uint64_t i = 0; i < count; ++i) {
    sum += mix(keys[i]);
  }
  return sum;
}

bool in_order(int a, int b, bool ascending) {
  return ascending ? a <= b : a >= b;
}

}  // namespace

// ranks.cpp's step 5: "" when the keys of every rank, in rank order, are the input's keys in order;
// else what is wrong, on rank 0 (the others return ""). `share` holds this rank's `real` input keys
// before the sort (the padding is not input) and `sorted` its first `real` keys after it; the
// padding sorts last, so the input's n keys are the first n of the array.
std::string check_ranks(const World &world, const std::vector<int> &share, const int *sorted,
                        std::uint64_t real, bool ascending) {
  // This rank's first position out of order, or its real count when there is none.
  std::uint64_t wrong = real;
  for (std::uint64_t i = 1; i < real && wrong == real; ++i) {
    wrong = in_order(sorted[i - 1], sorted[i], ascending) ? real : i;
  }
  // The next rank's first key, against this rank's last: each rank sends its first key (and
  // whether it has one) to the rank before it.
  const int mine[2] = {real > 0 ? sorted[0] : 0, real > 0 ? 1 : 0};
  int next[2] = {0, 0};
  const int before = world.rank == 0 ? MPI_PROC_NULL : static_cast<int>(world.rank - 1);
  const int after =
      world.rank + 1 == world.ranks ? MPI_PROC_NULL : static_cast<int>(world.rank + 1);
  MPI_Sendrecv(mine, 2, MPI_INT, before, 0, next, 2, MPI_INT, after, 0, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  const bool boundary = real == 0 || next[1] == 0 || in_order(sorted[real - 1], next[0], ascending);
  // Rank 0 hears the first rank with a key out of order, and where (MINLOC: the smallest first
  // value, with the second value of the rank that had it; a rank in order offers `ranks`): its
  // key out of order, or -1 for its last key against the next rank's first.
  const int local[2] = {static_cast<int>(wrong < real || !boundary ? world.rank : world.ranks),
                        wrong < real ? static_cast<int>(wrong) : -1};
  int first_wrong[2] = {0, 0};
  MPI_Reduce(local, first_wrong, 1, MPI_2INT, MPI_MINLOC, 0, MPI_COMM_WORLD);
  // The multiset: sums of the mixes before and after, over every rank.
  const std::uint64_t sums[2] = {checksum(share.data(), real), checksum(sorted, real)};
  std::uint64_t total[2] = {0, 0};
  MPI_Reduce(sums, total, 2, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
  if (world.rank != 0) {
    return "";
  }
  if (static_cast<unsigned>(first_wrong[0]) < world.ranks && first_wrong[1] < 0) {
    return "rank " + std::to_string(first_wrong[0]) + "'s last key is out of order against rank " +
        std::to_string(first_wrong[0] + 1) + "'s first";
  }
  if (static_cast<unsigned>(first_wrong[0]) < world.ranks) {
    return "rank " + std::to_string(first_wrong[0]) + "'s keys are out of order at its key " +
        std::to_string(first_wrong[1]);
  }
  if (total[0] != total[1]) {
    return "the keys out are not the keys in: their checksums differ";
  }
  return "";
}

// A test's way to see the check fail (ranks_test.py), after the sort: COURSE_BREAK_SORT=order
// swaps the last rank's first two keys; =keys sets the last rank's last key to the one before it
// (in order still, but one key lost and one doubled); =boundary sets rank 0's last key, of two
// ranks or more, to the key that sorts last (its share in order still, but not the next rank's
// first key against it).
void break_if_asked(const World &world, int *sorted, std::uint64_t real, bool ascending) {
  const char *asked = std::getenv("COURSE_BREAK_SORT");
  const std::string what = asked == nullptr ? "" : asked;
  const bool last = world.rank + 1 == world.ranks;
  if (what == "order" && last && real >= 2) {
    std::swap(sorted[0], sorted[1]);
  } else if (what == "keys" && last && real >= 2) {
    sorted[real - 1] = sorted[real - 2];
  } else if (what == "boundary" && world.rank == 0 && world.ranks > 1 && real >= 1) {
    sorted[real - 1] = padding_value(ascending);
  }
}
