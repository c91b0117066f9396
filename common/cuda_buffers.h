// cuda_buffers.h: device and pinned host buffers that free themselves, and CUDA events.
//
// Every call is checked except the ones in destructors: a destructor must not throw (it may
// run while an earlier error is being reported), and a failed free can only leak memory that
// the process is about to give back anyway.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "cuda_check.h"

// count ints in device memory.
class DeviceBuffer {
 public:
  explicit DeviceBuffer(std::size_t count) {
    if (count > 0) {
      CUDA_CHECK(cudaMalloc(&data_, count * sizeof(int)));
    }
  }
  ~DeviceBuffer() {
    cudaFree(data_);
  }
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  int *data() const {
    return data_;
  }

 private:
  int *data_ = nullptr;
};

// count ints in page-locked (pinned) host memory: the copy engines read and write it directly,
// so transfers run at the full speed of the bus, about twice as fast as from pageable memory.
class PinnedBuffer {
 public:
  explicit PinnedBuffer(std::size_t count) {
    if (count > 0) {
      CUDA_CHECK(cudaMallocHost(&data_, count * sizeof(int)));
    }
  }
  ~PinnedBuffer() {
    cudaFreeHost(data_);
  }
  PinnedBuffer(const PinnedBuffer &) = delete;
  PinnedBuffer &operator=(const PinnedBuffer &) = delete;
  int *data() const {
    return data_;
  }

 private:
  int *data_ = nullptr;
};

class CudaEvent {
 public:
  CudaEvent() {
    CUDA_CHECK(cudaEventCreate(&event_));
  }
  ~CudaEvent() {
    cudaEventDestroy(event_);
  }
  CudaEvent(const CudaEvent &) = delete;
  CudaEvent &operator=(const CudaEvent &) = delete;
  void record() {
    CUDA_CHECK(cudaEventRecord(event_));
  }
  // Milliseconds from `earlier` to this event; both must have completed.
  float milliseconds_since(const CudaEvent &earlier) const {
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, earlier.event_, event_));
    return ms;
  }
  void synchronize() {
    CUDA_CHECK(cudaEventSynchronize(event_));
  }

 private:
  cudaEvent_t event_ = nullptr;
};
