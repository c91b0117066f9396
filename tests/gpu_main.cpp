// The main() of the gpu test executables. Without a usable CUDA device the tests cannot say
// anything, so they report "skipped" (exit code 77, which Meson counts as SKIP), never a pass.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>

#include "device.h"

int main(int argc, char **argv) {
  if (usable_device_count() == 0) {
    std::printf("SKIP: no usable CUDA device on this machine\n");
    return 77;
  }
  doctest::Context context(argc, argv);
  return context.run();
}
