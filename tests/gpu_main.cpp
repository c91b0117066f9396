// The main() of the gpu test executables. Without a usable CUDA device the tests cannot say
// anything, so they report "skipped" (exit code 77, which Meson counts as SKIP), never a pass.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>

#include "device.h"

int main(int argc, char **argv) {
  if (usable_device_count() == 0) {
    std::printf("SKIP: no usable CUDA device on this machine\n");
    return 77;
  }
  // A test of a sort across GPUs sets COURSE_MIN_GPUS to the GPUs it needs (tests/stages).
  const char *needed = std::getenv("COURSE_MIN_GPUS");
  if (needed != nullptr && usable_device_count() < std::atoi(needed)) {
    std::printf("SKIP: these tests need %s GPUs, this machine has %d\n", needed,
                usable_device_count());
    return 77;
  }
  doctest::Context context(argc, argv);
  return context.run();
}
