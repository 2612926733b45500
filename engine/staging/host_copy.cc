#include "engine/staging/host_copy.h"

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <functional>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include "engine/device/context.h"
#include "engine/engine.h"

namespace gpufftw::engine {
namespace {

// A few threads that copy (or convert) one piece together: one thread's
// memcpy reaches about a fifth of what the bus takes. Most of the cores,
// leaving two to the program.
class CopyPool {
 public:
  CopyPool() {
    const unsigned cores = std::thread::hardware_concurrency();
    const unsigned n = std::max(1u, std::min(12u, cores > 2 ? cores - 2 : 1u));
    for (unsigned i = 1; i < n; ++i) workers_.emplace_back([this, i] { work(i); });
    parts_ = n;
  }

  void run(const std::function<void(unsigned, unsigned)> &job) {
    std::unique_lock<std::mutex> lock(mutex_);
    job_ = &job, pending_ = parts_ - 1, ++generation_;
    wake_.notify_all();
    lock.unlock();
    job(0, parts_);
    lock.lock();
    done_.wait(lock, [this] { return pending_ == 0; });
  }

 private:
  void work(unsigned i) {
    unsigned long seen = 0;
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      wake_.wait(lock, [&] { return generation_ != seen; });
      seen = generation_;
      lock.unlock();
      (*job_)(i, parts_);
      lock.lock();
      if (--pending_ == 0) done_.notify_one();
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_, done_;
  std::vector<std::thread> workers_;
  unsigned parts_ = 1, pending_ = 0;
  unsigned long generation_ = 0;
  const std::function<void(unsigned, unsigned)> *job_ = nullptr;
};

// One pool per device, used by one copy at a time: the threads are the
// bandwidth, and each device's link gets threads of its own, so that the
// GPUs of a split job all stream from pageable memory at once.
struct SharedPool {
  std::mutex busy;
  CopyPool pool;
};
SharedPool &shared_pool() {
  static std::mutex made;
  static std::map<int, SharedPool *> *pools = new std::map<int, SharedPool *>;  // threads outlive every copier
  std::lock_guard<std::mutex> lock(made);
  SharedPool *&p = (*pools)[device()];
  if (!p) p = new SharedPool;
  return *p;
}

// Device bytes [off, off + len) of a block of rows of `width` bytes,
// back to back there, between a slot that holds just those bytes and a
// host array whose rows lie `pitch` bytes apart (a plain range: one row,
// pitch = width); split among the threads.
HostCopier::Piece strip(char *host, size_t pitch, size_t width, bool to_slot) {
  return [=](char *slot, size_t off, size_t len) {
    on_staging_threads([&](unsigned i, unsigned parts) {
      const size_t chunk = (len + parts - 1) / parts, begin = std::min(len, i * chunk),
                   end = std::min(len, begin + chunk);
      for (size_t x = begin; x < end;) {
        const size_t at = off + x, row = at / width, col = at % width, n = std::min(end - x, width - col);
        char *h = host + row * pitch + col;
        if (to_slot)
          std::memcpy(slot + x, h, n);
        else
          std::memcpy(h, slot + x, n);
        x += n;
      }
    });
  };
}

// Bytes [off, off + len) of a device block of rows of `width` bytes lying
// `pitch` apart, queued to `dst` back to back: the whole rows in one 2-D
// copy, a part of a row in a copy of its own.
bool rows_from_device(char *dst, const char *src, size_t pitch, size_t width, size_t off, size_t len,
                      cudaStream_t stream, std::string *why) {
  while (len > 0) {
    const size_t col = off % width;
    const char *from = src + off / width * pitch + col;
    size_t n = std::min(len, width - col);
    if (col == 0 && len >= width) {
      n = len / width * width;
      GPUFFTW_CK(cudaMemcpy2DAsync(dst, width, from, pitch, width, len / width, cudaMemcpyDeviceToHost, stream), why);
    } else {
      GPUFFTW_CK(cudaMemcpyAsync(dst, from, n, cudaMemcpyDeviceToHost, stream), why);
    }
    dst += n, off += n, len -= n;
  }
  return true;
}

}  // namespace

void on_staging_threads(const std::function<void(unsigned part, unsigned parts)> &job) {
  SharedPool &p = shared_pool();
  std::lock_guard<std::mutex> lock(p.busy);
  p.pool.run(job);
}

HostCopier::~HostCopier() {
  for (int i = 0; i < kSlots; ++i) {
    if (done_[i]) cudaEventDestroy(done_[i]);
    if (slot_[i]) cudaFreeHost(slot_[i]);
  }
}

int HostCopier::take_slots(size_t count) {
  const int first = next_slot_;
  next_slot_ = static_cast<int>((first + count) % kSlots);
  return first;
}

bool HostCopier::ensure_slots(std::string *why) {
  for (int i = 0; i < kSlots; ++i) {
    if (slot_[i]) continue;
    GPUFFTW_CK(cudaHostAlloc(reinterpret_cast<void **>(&slot_[i]), piece_, cudaHostAllocDefault), why);
    GPUFFTW_CK(cudaEventCreateWithFlags(&done_[i], cudaEventDisableTiming), why);
  }
  return true;
}

bool HostCopier::to_device(void *dst, const void *src, size_t bytes, cudaStream_t stream, std::string *why) {
  if (memory_type(src) == Memory::Pinned) {
    GPUFFTW_CK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, stream), why);
    return true;
  }
  return staged_to_device(dst, bytes, strip(const_cast<char *>(static_cast<const char *>(src)), bytes, bytes, true),
                          stream, why);
}

bool HostCopier::rows_to_device(void *dst, const void *src, size_t pitch, size_t width, size_t rows,
                                cudaStream_t stream, std::string *why) {
  if (memory_type(src) == Memory::Pinned) {
    GPUFFTW_CK(cudaMemcpy2DAsync(dst, width, src, pitch, width, rows, cudaMemcpyHostToDevice, stream), why);
    return true;
  }
  return staged_to_device(dst, width * rows,
                          strip(const_cast<char *>(static_cast<const char *>(src)), pitch, width, true), stream, why);
}

bool HostCopier::to_host(void *dst, const void *src, size_t bytes, cudaStream_t stream, std::string *why) {
  if (memory_type(dst) == Memory::Pinned) {
    GPUFFTW_CK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, stream), why);
    return true;
  }
  return staged_to_host(src, bytes, strip(static_cast<char *>(dst), bytes, bytes, false), stream, why);
}

bool HostCopier::rows_to_host(void *dst, size_t pitch, const void *src, size_t spitch, size_t width, size_t rows,
                              cudaStream_t stream, std::string *why) {
  if (memory_type(dst) == Memory::Pinned) {
    GPUFFTW_CK(cudaMemcpy2DAsync(dst, pitch, src, spitch, width, rows, cudaMemcpyDeviceToHost, stream), why);
    return true;
  }
  return staged_rows_to_host(static_cast<const char *>(src), spitch, width, rows,
                             strip(static_cast<char *>(dst), pitch, width, false), stream, why);
}

// Piece k+1 is filled while the DMA of piece k runs.
bool HostCopier::staged_to_device(void *dst, size_t bytes, const Piece &fill, cudaStream_t stream, std::string *why) {
  if (!ensure_slots(why)) return false;
  const int first = take_slots((bytes + piece_ - 1) / piece_);
  for (size_t off = 0, k = 0; off < bytes; off += piece_, ++k) {
    const int s = static_cast<int>((first + k) % kSlots);
    const size_t len = std::min(piece_, bytes - off);
    GPUFFTW_CK(cudaEventSynchronize(done_[s]), why);  // its last DMA is done
    fill(slot_[s], off, len);
    GPUFFTW_CK(cudaMemcpyAsync(static_cast<char *>(dst) + off, slot_[s], len, cudaMemcpyHostToDevice, stream), why);
    GPUFFTW_CK(cudaEventRecord(done_[s], stream), why);
  }
  return true;
}

bool HostCopier::staged_to_host(const void *src, size_t bytes, const Piece &drain, cudaStream_t stream,
                                std::string *why) {
  return staged_rows_to_host(static_cast<const char *>(src), bytes, bytes, 1, drain, stream, why);
}

// The DMAs of the next pieces run while piece k is drained.
bool HostCopier::staged_rows_to_host(const char *src, size_t pitch, size_t width, size_t rows, const Piece &drain,
                                     cudaStream_t stream, std::string *why) {
  if (!ensure_slots(why)) return false;
  const size_t bytes = width * rows;
  const size_t pieces = (bytes + piece_ - 1) / piece_;
  const int first = take_slots(pieces);
  auto slot = [&](size_t k) { return static_cast<int>((first + k) % kSlots); };
  auto issue = [&](size_t k) -> bool {
    const int s = slot(k);
    const size_t off = k * piece_, len = std::min(piece_, bytes - off);
    // The slot may still feed a copy to the device queued on another
    // stream (the host has filled it; its DMA has not run yet).
    GPUFFTW_CK(cudaStreamWaitEvent(stream, done_[s], 0), why);
    if (!rows_from_device(slot_[s], src, pitch, width, off, len, stream, why)) return false;
    GPUFFTW_CK(cudaEventRecord(done_[s], stream), why);
    return true;
  };
  for (size_t k = 0; k < std::min<size_t>(pieces, kSlots); ++k)
    if (!issue(k)) return false;
  for (size_t k = 0; k < pieces; ++k) {
    const int s = slot(k);
    GPUFFTW_CK(cudaEventSynchronize(done_[s]), why);
    drain(slot_[s], k * piece_, std::min(piece_, bytes - k * piece_));
    if (k + kSlots < pieces && !issue(k + kSlots)) return false;
  }
  return true;
}

}  // namespace gpufftw::engine
