// bitonic_index.h: the index arithmetic of this stage's kernels.
//
// The functions are __host__ __device__: the kernels call them on the GPU, and the cpu test
// suite calls the very same functions on the host and checks them against the reference
// network (tools/reference_network.h), step by step.
#pragma once

#include "host_device.h"

// The partner of element i in a compare step of stride `stride` (a power of two): the element
// whose index differs from i in exactly that one bit. XOR flips the bit.
//
//   stride 4, i = 1:  0001 ^ 0100 = 0101, partner 5
//   stride 4, i = 5:  0101 ^ 0100 = 0001, partner 1
//
// So the pairs are symmetric: i and its partner name each other. The element whose bit is 0 is
// the lower one of the pair (i < partner).
__host__ __device__ inline unsigned partner_index(unsigned i, unsigned stride) {
  return i ^ stride;
}

// Whether the pair whose lower element is i must end up with the smaller key first.
//
// The steps with a given `size` sort the array in blocks of `size` elements; block b covers
// indices [b * size, (b + 1) * size). "Bit `size` of i" means the bit worth `size` (size is a
// power of two), i & size: it is the lowest bit of b, so it is 0 for even blocks, which sort
// ascending, and 1 for odd blocks, which sort descending. Each even block and the odd block
// after it then form one bitonic sequence (up, then down) of 2 * size elements: exactly what the
// steps of the next size need. In the last steps size = n, the bit is 0 for every i < n, and the
// whole array comes out ascending.
//
// A descending sort flips every direction (ascending == false): the mirror image of the network.
__host__ __device__ inline bool sorts_ascending(unsigned i, unsigned size, bool ascending) {
  const bool even_block = (i & size) == 0;
  return even_block == ascending;
}

// q for n = 2^q.
inline unsigned exact_log2(unsigned n) {
  unsigned q = 0;
  while ((1u << q) < n) {
    ++q;
  }
  return q;
}

// The kernels bitonic_sort launches (the later stages add their own).
enum class Kernel { bitonic_step };

// A kernel's name, as --trace-launches prints it.
inline const char *kernel_name(Kernel kernel) {
  switch (kernel) {
    case Kernel::bitonic_step:
      return "bitonic_step";
  }
  return "unknown";
}

// One kernel launch of bitonic_sort: which kernel, and which compare steps of the network it
// runs: `steps` consecutive steps in the network's order (sizes 2, 4, ..., n; in each size the
// strides size / 2, ..., 1), the first of them at merge size `size` and stride `stride`.
struct Launch {
  Kernel kernel;
  unsigned size;
  unsigned stride;
  unsigned steps;
};

// The launches bitonic_sort makes for n keys (a power of two), in order, each handed to
// launch(...): bitonic_sort makes it a kernel launch, and the program's --trace-launches a
// printed line. The cpu tests check that the launches run every step of the network once, in
// order, and that there are launches_per_sort(n) of them. Here every step is one launch.
template <typename LaunchFunction>
void for_each_launch(unsigned n, LaunchFunction launch) {
  for (unsigned size = 2; size <= n; size *= 2) {
    for (unsigned stride = size / 2; stride > 0; stride /= 2) {
      launch(Launch{Kernel::bitonic_step, size, stride, 1});
    }
  }
}

// The kernel launches bitonic_sort makes for n = 2^q keys: one per compare step. The sizes
// 2^1 .. 2^q have 1, 2, ..., q steps, so there are q(q + 1) / 2 launches.
inline unsigned long long launches_per_sort(unsigned n) {
  const unsigned long long q = exact_log2(n);
  return q * (q + 1) / 2;
}
