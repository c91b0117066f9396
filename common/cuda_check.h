// cuda_check.h: no CUDA error goes unnoticed.
//
// Every runtime call is wrapped in CUDA_CHECK and every kernel launch is followed by
// CHECK_LAUNCH(). A failure becomes a FatalError naming the call (or the launch), the file and the
// line, with exit code 3 (4 when the device ran out of memory). These two are macros only because
// a function cannot see the text of the call or the file and line it was written on; each hands
// its work straight to the function below it.
#pragma once

#include <cuda_runtime.h>

void check_cuda(cudaError_t result, const char *call, const char *file, int line);

// Asks the runtime whether the launch just made was accepted, then counts it. Errors that happen
// while the kernel runs surface at the next synchronising call, which is checked too.
void check_launch(const char *file, int line);

#define CUDA_CHECK(call) check_cuda((call), #call, __FILE__, __LINE__)
#define CHECK_LAUNCH() check_launch(__FILE__, __LINE__)

// The number of launches CHECK_LAUNCH() has seen since the last reset: the report's
// "launches per sort" is counted, not computed from a formula.
void reset_launch_count();
unsigned long long launch_count();
