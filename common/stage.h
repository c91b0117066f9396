// stage.h: the interface every stage implements, declared once.
//
// Each stage's bitonic_sort.cu defines this function. It sorts n 32-bit signed integers that are
// already in device memory, in place, ascending or descending. n must be a power of two from 1
// to 2^30; the common driver pads any other length (padding.h). The function only launches
// kernels: it allocates nothing, copies nothing between host and device, and returns without
// waiting for the kernels to finish (the caller times them with CUDA events). Every launch is
// checked and counted (cuda_check.h).
#pragma once

void bitonic_sort(int *keys, unsigned n, bool ascending);
