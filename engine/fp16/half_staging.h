// Host float arrays to and from device arrays of halves, converted on the
// host while staging, so that PCIe carries half the bytes (issue 8). Like
// HostCopier's pageable path (engine/host_copy.h): pinned buffers that the
// staging threads fill with halves (F16C, host_half.h) while the DMA of the
// previous piece runs, and drain the same way on the way back. Pinned and
// pageable arrays alike pass through the buffers: the conversion must
// happen on the host for the bus to carry halves.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace gpufftw::engine::fp16 {

class HalfStaging {
 public:
  // Three buffers of `piece` halves. 4 Mi (8 MiB, 16 MiB of floats):
  // on the H100 machine 1 Mi and 2 Mi ran at half the rate into the device
  // (the threads' wake-up and the waits per piece); half_staging_bench
  // measures the sizes.
  static constexpr size_t kPiece = size_t{4} << 20;
  explicit HalfStaging(size_t piece = kPiece) : piece_(piece) {}
  ~HalfStaging();
  HalfStaging(const HalfStaging &) = delete;
  HalfStaging &operator=(const HalfStaging &) = delete;

  // `count` floats of the host array `src` as halves at the device array
  // `dst`, queued on `stream`; `src` is read before this returns.
  bool to_device(uint16_t *dst, const float *src, size_t count, cudaStream_t stream, std::string *why);
  // `count` halves of the device array `src` as floats into the host array
  // `dst`, after the stream's earlier work; written before this returns.
  bool to_host(float *dst, const uint16_t *src, size_t count, cudaStream_t stream, std::string *why);

 private:
  static constexpr int kSlots = 3;
  bool ensure_slots(std::string *why);
  size_t piece_;
  uint16_t *slot_[kSlots] = {};
  cudaEvent_t done_[kSlots] = {};
};

}  // namespace gpufftw::engine::fp16
