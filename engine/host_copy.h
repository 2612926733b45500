// Copies between host arrays and device memory near PCIe speed whether the
// host array is pinned or pageable. Pinned arrays go straight to the DMA
// engine; pageable ones pass through pinned staging buffers that several
// threads fill (or drain) while the DMA of the previous piece runs, where
// cudaMemcpy's own pageable path reaches a fraction of the bus.
#pragma once

#include <cuda_runtime_api.h>

#include <functional>
#include <string>

namespace gpufftw::engine {

// Runs job(part, parts) for every part in [0, parts) on the staging threads
// (the caller is one of them) and returns when all are done. One such run
// at a time in the process: the threads are the host's copy bandwidth.
// HostCopier fills and drains its buffers so; the FP16 staging converts so.
void on_staging_threads(const std::function<void(unsigned part, unsigned parts)> &job);

class HostCopier {
 public:
  HostCopier() = default;
  ~HostCopier();
  HostCopier(const HostCopier &) = delete;
  HostCopier &operator=(const HostCopier &) = delete;

  // Queued on `stream`; a pageable source is read before this returns.
  bool to_device(void *dst, const void *src, size_t bytes, cudaStream_t stream, std::string *why);
  // Queued on `stream`; a pageable destination is written (and the stream's
  // earlier work finished) before this returns.
  bool to_host(void *dst, const void *src, size_t bytes, cudaStream_t stream, std::string *why);
  // The same for `rows` rows of `width` bytes that lie `pitch` bytes apart
  // in the host array and back to back (row r at r * width) in device
  // memory: a block of columns of a row-major array.
  bool rows_to_device(void *dst, const void *src, size_t pitch, size_t width, size_t rows, cudaStream_t stream,
                      std::string *why);
  bool rows_to_host(void *dst, size_t pitch, const void *src, size_t width, size_t rows, cudaStream_t stream,
                    std::string *why);

 private:
  static constexpr int kSlots = 3;
  static constexpr size_t kPiece = size_t{8} << 20;
  bool ensure_slots(std::string *why);
  // Through the slots: rows of `width` bytes, `pitch` apart on the host,
  // `bytes` in all (a plain range: pitch = width = bytes).
  bool staged_to_device(void *dst, const void *src, size_t pitch, size_t width, size_t bytes, cudaStream_t stream,
                        std::string *why);
  bool staged_to_host(void *dst, size_t pitch, const void *src, size_t width, size_t bytes, cudaStream_t stream,
                      std::string *why);
  char *slot_[kSlots] = {};
  cudaEvent_t done_[kSlots] = {};
};

}  // namespace gpufftw::engine
