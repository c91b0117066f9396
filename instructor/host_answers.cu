// host_answers.cu: answers to exercises 1 to 3 that give the right keys without doing the work
// on the GPU: each copies the keys to the host, sorts them there with the order the exercise
// asks for, and copies them back (host_copy.h). The exercises' checks count the launches and
// what the GPU ran (CUPTI), so they must reject these on those assertions
// (instructor/checks_reject.py), however right the keys are.
#include "host_copy.h"

// Exercise 1: any n, no padding.
void bitonic_sort(int *keys, unsigned n, bool ascending) {
  sort_on_host(keys, n, ascending);
}

// Exercise 2: pairs, sorted by key.
void bitonic_sort_pairs(int *keys, int *values, unsigned n, bool ascending) {
  sort_pairs_on_host(keys, values, n, ascending);
}

// Exercise 3: floats in IEEE 754 totalOrder.
void bitonic_sort_floats(float *keys, unsigned n, bool ascending) {
  sort_floats_on_host(keys, n, ascending);
}
