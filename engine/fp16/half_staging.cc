#include "engine/fp16/half_staging.h"

#include <algorithm>

#include "engine/context.h"
#include "engine/fp16/host_half.h"
#include "engine/host_copy.h"

namespace gpufftw::engine::fp16 {
namespace {

// Each thread's share of `count` values, in whole cache lines of halves so
// that no two threads write one line.
void split(size_t count, unsigned part, unsigned parts, size_t *begin, size_t *end) {
  constexpr size_t kLine = 32;
  const size_t lines = (count + kLine - 1) / kLine, per = (lines + parts - 1) / parts;
  *begin = std::min(count, part * per * kLine);
  *end = std::min(count, *begin + per * kLine);
}

}  // namespace

HalfStaging::~HalfStaging() {
  for (int i = 0; i < kSlots; ++i) {
    if (done_[i]) cudaEventDestroy(done_[i]);
    if (slot_[i]) cudaFreeHost(slot_[i]);
  }
}

bool HalfStaging::ensure_slots(std::string *why) {
  for (int i = 0; i < kSlots; ++i) {
    if (slot_[i]) continue;
    GPUFFTW_CK(cudaHostAlloc(reinterpret_cast<void **>(&slot_[i]), piece_ * sizeof(uint16_t), cudaHostAllocDefault),
               why);
    GPUFFTW_CK(cudaEventCreateWithFlags(&done_[i], cudaEventDisableTiming), why);
  }
  return true;
}

// Piece k+1 is converted while the DMA of piece k runs.
bool HalfStaging::to_device(uint16_t *dst, const float *src, size_t count, cudaStream_t stream, std::string *why) {
  if (!ensure_slots(why)) return false;
  for (size_t off = 0, k = 0; off < count; off += piece_, ++k) {
    const int s = static_cast<int>(k % kSlots);
    const size_t len = std::min(piece_, count - off);
    GPUFFTW_CK(cudaEventSynchronize(done_[s]), why);  // its last DMA is done
    uint16_t *slot = slot_[s];
    on_staging_threads([&](unsigned part, unsigned parts) {
      size_t b, e;
      split(len, part, parts, &b, &e);
      to_half(src + off + b, slot + b, e - b);
    });
    GPUFFTW_CK(cudaMemcpyAsync(dst + off, slot, len * sizeof(uint16_t), cudaMemcpyHostToDevice, stream), why);
    GPUFFTW_CK(cudaEventRecord(done_[s], stream), why);
  }
  return true;
}

// The DMAs of the next pieces run while piece k is converted.
bool HalfStaging::to_host(float *dst, const uint16_t *src, size_t count, cudaStream_t stream, std::string *why) {
  if (!ensure_slots(why)) return false;
  const size_t pieces = (count + piece_ - 1) / piece_;
  auto issue = [&](size_t k) -> bool {
    const int s = static_cast<int>(k % kSlots);
    const size_t off = k * piece_, len = std::min(piece_, count - off);
    // The slot may still feed a copy to the device queued on another
    // stream (filled by the host, its DMA not run yet).
    GPUFFTW_CK(cudaStreamWaitEvent(stream, done_[s], 0), why);
    GPUFFTW_CK(cudaMemcpyAsync(slot_[s], src + off, len * sizeof(uint16_t), cudaMemcpyDeviceToHost, stream), why);
    GPUFFTW_CK(cudaEventRecord(done_[s], stream), why);
    return true;
  };
  for (size_t k = 0; k < std::min<size_t>(pieces, kSlots); ++k)
    if (!issue(k)) return false;
  for (size_t k = 0; k < pieces; ++k) {
    const int s = static_cast<int>(k % kSlots);
    const size_t off = k * piece_, len = std::min(piece_, count - off);
    GPUFFTW_CK(cudaEventSynchronize(done_[s]), why);
    const uint16_t *slot = slot_[s];
    on_staging_threads([&](unsigned part, unsigned parts) {
      size_t b, e;
      split(len, part, parts, &b, &e);
      to_float(slot + b, dst + off + b, e - b);
    });
    if (k + kSlots < pieces && !issue(k + kSlots)) return false;
  }
  return true;
}

}  // namespace gpufftw::engine::fp16
