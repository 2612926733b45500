#include "engine/host_copy.h"

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "engine/context.h"
#include "engine/engine.h"

namespace gpufftw::engine {
namespace {

// A few threads that copy one piece together: one thread's memcpy reaches
// about a fifth of what the bus takes. Most of the cores, leaving two to the
// program.
class CopyPool {
 public:
  CopyPool() {
    const unsigned cores = std::thread::hardware_concurrency();
    const unsigned n = std::max(1u, std::min(12u, cores > 2 ? cores - 2 : 1u));
    for (unsigned i = 1; i < n; ++i) workers_.emplace_back([this, i] { work(i); });
    parts_ = n;
  }

  // dst[0, bytes) = src[0, bytes), split among the threads.
  void copy(char *dst, const char *src, size_t bytes) {
    std::unique_lock<std::mutex> lock(mutex_);
    dst_ = dst, src_ = src, bytes_ = bytes, pending_ = parts_ - 1, ++generation_;
    wake_.notify_all();
    lock.unlock();
    part(0);
    lock.lock();
    done_.wait(lock, [this] { return pending_ == 0; });
  }

 private:
  void part(unsigned i) {
    const size_t chunk = (bytes_ + parts_ - 1) / parts_, begin = std::min(bytes_, i * chunk),
                 end = std::min(bytes_, begin + chunk);
    if (end > begin) std::memcpy(dst_ + begin, src_ + begin, end - begin);
  }
  void work(unsigned i) {
    unsigned long seen = 0;
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      wake_.wait(lock, [&] { return generation_ != seen; });
      seen = generation_;
      lock.unlock();
      part(i);
      lock.lock();
      if (--pending_ == 0) done_.notify_one();
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_, done_;
  std::vector<std::thread> workers_;
  unsigned parts_ = 1, pending_ = 0;
  unsigned long generation_ = 0;
  char *dst_ = nullptr;
  const char *src_ = nullptr;
  size_t bytes_ = 0;
};

// One pool, used by one copy at a time: the threads are the bandwidth.
struct SharedPool {
  std::mutex busy;
  CopyPool pool;
};
SharedPool &shared_pool() {
  static SharedPool *p = new SharedPool;  // threads must outlive every copier
  return *p;
}

void parallel_copy(char *dst, const char *src, size_t bytes) {
  SharedPool &p = shared_pool();
  std::lock_guard<std::mutex> lock(p.busy);
  p.pool.copy(dst, src, bytes);
}

}  // namespace

HostCopier::~HostCopier() {
  for (int i = 0; i < kSlots; ++i) {
    if (done_[i]) cudaEventDestroy(done_[i]);
    if (slot_[i]) cudaFreeHost(slot_[i]);
  }
}

bool HostCopier::ensure_slots(std::string *why) {
  for (int i = 0; i < kSlots; ++i) {
    if (slot_[i]) continue;
    GPUFFTW_CK(cudaHostAlloc(reinterpret_cast<void **>(&slot_[i]), kPiece, cudaHostAllocDefault), why);
    GPUFFTW_CK(cudaEventCreateWithFlags(&done_[i], cudaEventDisableTiming), why);
  }
  return true;
}

bool HostCopier::to_device(void *dst, const void *src, size_t bytes, cudaStream_t stream, std::string *why) {
  if (memory_type(src) == Memory::Pinned) {
    GPUFFTW_CK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, stream), why);
    return true;
  }
  if (!ensure_slots(why)) return false;
  for (size_t off = 0, k = 0; off < bytes; off += kPiece, ++k) {
    const int s = static_cast<int>(k % kSlots);
    const size_t len = std::min(kPiece, bytes - off);
    GPUFFTW_CK(cudaEventSynchronize(done_[s]), why);  // its last DMA is done
    parallel_copy(slot_[s], static_cast<const char *>(src) + off, len);
    GPUFFTW_CK(cudaMemcpyAsync(static_cast<char *>(dst) + off, slot_[s], len, cudaMemcpyHostToDevice, stream), why);
    GPUFFTW_CK(cudaEventRecord(done_[s], stream), why);
  }
  return true;
}

bool HostCopier::to_host(void *dst, const void *src, size_t bytes, cudaStream_t stream, std::string *why) {
  if (memory_type(dst) == Memory::Pinned) {
    GPUFFTW_CK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, stream), why);
    return true;
  }
  if (!ensure_slots(why)) return false;
  const size_t pieces = (bytes + kPiece - 1) / kPiece;
  auto issue = [&](size_t k) -> bool {
    const int s = static_cast<int>(k % kSlots);
    const size_t off = k * kPiece, len = std::min(kPiece, bytes - off);
    GPUFFTW_CK(cudaMemcpyAsync(slot_[s], static_cast<const char *>(src) + off, len, cudaMemcpyDeviceToHost, stream), why);
    GPUFFTW_CK(cudaEventRecord(done_[s], stream), why);
    return true;
  };
  for (size_t k = 0; k < std::min<size_t>(pieces, kSlots); ++k)
    if (!issue(k)) return false;
  for (size_t k = 0; k < pieces; ++k) {
    const int s = static_cast<int>(k % kSlots);
    const size_t off = k * kPiece, len = std::min(kPiece, bytes - off);
    GPUFFTW_CK(cudaEventSynchronize(done_[s]), why);
    parallel_copy(static_cast<char *>(dst) + off, slot_[s], len);
    if (k + kSlots < pieces && !issue(k + kSlots)) return false;
  }
  return true;
}

}  // namespace gpufftw::engine
