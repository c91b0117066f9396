// gpu_present: exits 0 when a CUDA device is usable here, else 77, the code Meson reads as
// "skipped". The test scripts call it before running anything that needs a GPU.
#include <cstdio>

#include "device.h"

int main() {
  if (usable_device_count() > 0) {
    return 0;
  }
  std::printf("no usable CUDA device here\n");
  return 77;
}
