// device.h: finding the GPU and checking that the data fits before anything is allocated.
// A plain C++ interface, so that host-only code can use it without CUDA headers.
#pragma once

#include <cstdint>
#include <string>

struct DeviceInfo {
  int id = 0;
  std::string name;
  std::string compute_capability;
  int multiprocessors = 0;
  std::uint64_t total_bytes = 0;
  // CUDA versions as "13.0": the runtime this program was built with, and the newest the
  // installed driver supports.
  std::string runtime_version;
  std::string driver_version;
};

// How many CUDA devices the runtime can use here; 0 when there is no GPU or no driver.
int usable_device_count();

// Makes device `id` current and describes it. Throws FatalError(kExitCudaError) when there is
// no usable device or no device with that id.
DeviceInfo select_device(int id);

// The GPUs a sort across GPUs runs on (--gpus): devices 0 .. P - 1, P = `asked`, or for 0 the
// most GPUs there are that make a power of two (at most kMaxGpus). Throws FatalError(
// kExitCudaError) when there is no usable device or fewer than `asked`.
unsigned choose_gpus(unsigned asked);

// Throws FatalError(kExitOutOfMemory), saying how much is needed and how much is free, unless
// the current device has `bytes` free. `what` names the data ("2^29 keys").
void require_device_memory(std::uint64_t bytes, const std::string &what);
