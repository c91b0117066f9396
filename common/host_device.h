// host_device.h: lets a stage's index helpers compile in two worlds.
//
// The helpers in each stage's bitonic_index.h are marked __host__ __device__ so that the very
// same functions run inside the kernels (compiled by nvcc) and inside the cpu test suite. The cpu
// tests are compiled by a plain C++ compiler, which has never heard of the two CUDA qualifiers;
// for it they mean nothing, so they are defined away. nvcc defines __CUDACC__ and keeps them.
#pragma once

#ifndef __CUDACC__
#define __host__
#define __device__
#endif
