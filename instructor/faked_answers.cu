// faked_answers.cu: host_answers.cu's sorts on the host, each followed by CHECK_LAUNCH() as
// often as a right answer launches kernels (those of v0_naive's network for n padded): the
// launch counts of the exercises' checks take them for GPU work. The checks that a sort only
// queues its work on the GPU (tests/gpu_queue.h) and the checks that count what the GPU ran
// (tests/gpu_activity.h) must reject them (instructor/checks_reject.py). count_launches_not_made
// is in host_copy.h.
#include "host_copy.h"

// Exercise 1: any n, no padding.
void bitonic_sort(int *keys, unsigned n, bool ascending) {
  sort_on_host(keys, n, ascending);
  count_launches_not_made(n);
}

// Exercise 2: pairs, sorted by key.
void bitonic_sort_pairs(int *keys, int *values, unsigned n, bool ascending) {
  sort_pairs_on_host(keys, values, n, ascending);
  count_launches_not_made(n);
}

// Exercise 3: floats in IEEE 754 totalOrder.
void bitonic_sort_floats(float *keys, unsigned n, bool ascending) {
  sort_floats_on_host(keys, n, ascending);
  count_launches_not_made(n);
}
