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

class Relay;

// What the staging threads do: copy bytes (bound by the host's memory:
// past a few threads they only contend for it) or convert floats to
// halves and back (bound by the threads' arithmetic: more threads convert
// faster). A conversion takes more of the device's threads than a copy.
enum class StagingWork { Copy, Convert };

// A device's staging threads on a host of `cores` cores whose device set
// has `gpus` GPUs, each with threads of its own: a copy's, about a dozen
// (one thread's memcpy reaches about a fifth of what the bus takes, and a
// dozen copy at the host memory's pace), and a conversion's: on a set of
// one GPU up to twice as many, from the cores left to the program (two);
// on a set of several, a copy's, since the GPUs of a split convert at
// once and their threads together already fill the host.
struct StagingThreads {
  unsigned copy, convert;
};
StagingThreads staging_threads(unsigned cores, unsigned gpus);

// Runs job(part, parts) for every part in [0, parts) on the device's
// staging threads, as many as `work` takes (the caller is one of them),
// and returns when all are done. One such run at a time per device: the
// threads are the host's bandwidth to its link. HostCopier fills and
// drains its buffers so; the FP16 staging converts so.
void on_staging_threads(StagingWork work, const std::function<void(unsigned part, unsigned parts)> &job);

class HostCopier {
 public:
  // Three pinned slots of `piece` bytes, made on first use: while the DMA
  // of one runs, the threads fill (or drain) the next two.
  // half_staging_bench measures the sizes (docs/fp16.md, "Host path").
  static constexpr size_t kPiece = size_t{8} << 20;
  static constexpr int kSlots = 3;
  explicit HostCopier(size_t piece = kPiece) : piece_(piece) {}
  ~HostCopier();
  HostCopier(const HostCopier &) = delete;
  HostCopier &operator=(const HostCopier &) = delete;

  // Queued on `stream`; a pageable source is read before this returns.
  bool to_device(void *dst, const void *src, size_t bytes, cudaStream_t stream, std::string *why);
  // Queued on `stream`; a pageable destination is written (and the stream's
  // earlier work finished) before this returns.
  bool to_host(void *dst, const void *src, size_t bytes, cudaStream_t stream, std::string *why);
  // The same for `rows` rows of `width` bytes that lie `pitch` bytes apart
  // in the host array: a block of columns of a row-major array. On the way
  // in they land back to back (row r at r * width) in device memory; on
  // the way out they are read `spitch` bytes apart there (`width`: back to
  // back).
  bool rows_to_device(void *dst, const void *src, size_t pitch, size_t width, size_t rows, cudaStream_t stream,
                      std::string *why);
  bool rows_to_host(void *dst, size_t pitch, const void *src, size_t spitch, size_t width, size_t rows,
                    cudaStream_t stream, std::string *why);

  // `bytes` of device memory through the slots, pinned host arrays too:
  // for copies whose host side is not those bytes (the FP16 staging
  // converts floats to halves on the way, engine/staging/half_staging.h),
  // on the threads a conversion takes.
  // fill(at, off, len) writes device bytes [off, off + len) at `at` in a
  // slot, drain(at, off, len) takes them out, while the DMAs of other
  // pieces run. The staging threads call them, several at once on ranges
  // of their own (Relay's blocks, engine/staging/relay.h), so they do the
  // range's work on the calling thread alone. Returns as to_device's and
  // to_host's do for a pageable array.
  using Piece = std::function<void(char *at, size_t off, size_t len)>;
  bool staged_to_device(void *dst, size_t bytes, const Piece &fill, cudaStream_t stream, std::string *why);
  bool staged_to_host(const void *src, size_t bytes, const Piece &drain, cudaStream_t stream, std::string *why);
  // staged_to_host of `rows` device rows of `width` bytes, `pitch` apart:
  // drain's offsets count them back to back.
  bool staged_rows_to_host(const char *src, size_t pitch, size_t width, size_t rows, const Piece &drain,
                           cudaStream_t stream, std::string *why);

 private:
  bool stage_to_device(void *dst, size_t bytes, const Piece &fill, StagingWork work, cudaStream_t stream,
                       std::string *why);
  bool stage_rows_to_host(const char *src, size_t pitch, size_t width, size_t rows, const Piece &drain,
                          StagingWork work, cudaStream_t stream, std::string *why);
  bool ensure_slots(std::string *why);
  // The first of `count` slots taken in turn, from where the last call
  // left off, not from the first at each call: a caller that copies a
  // chunk at a time (the slab split) then fills the next chunk's slot while
  // the last one's DMA runs, instead of waiting for it to free the slot
  // both would share.
  int take_slots(size_t count);
  bool open_when(cudaEvent_t done, Relay &relay, std::string *why);
  int next_slot_ = 0;
  size_t piece_;
  char *slot_[kSlots] = {};
  cudaEvent_t done_[kSlots] = {};
  // Runs the host functions that open pieces to the staging threads once
  // their DMAs have landed, beside the copy's stream, which they would
  // otherwise hold up between one DMA and the next.
  cudaStream_t opener_ = nullptr;
};

}  // namespace gpufftw::engine
