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
  HalfStaging() = default;
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
  static constexpr size_t kPiece = size_t{4} << 20;  // halves a buffer holds: 8 MiB, 16 MiB of floats
  bool ensure_slots(std::string *why);
  uint16_t *slot_[kSlots] = {};
  cudaEvent_t done_[kSlots] = {};
};

}  // namespace gpufftw::engine::fp16
