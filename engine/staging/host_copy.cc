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
#include "engine/staging/relay.h"

namespace gpufftw::engine {
namespace {

// Threads that copy (or convert) one piece together, as many as a
// conversion takes; a copy runs on the first of them.
class CopyPool {
 public:
  explicit CopyPool(StagingThreads n) : copy_parts_(n.copy), parts_(n.convert) {
    for (unsigned i = 1; i < parts_; ++i) workers_.emplace_back([this, i] { work(i); });
  }

  void run(StagingWork work, const std::function<void(unsigned, unsigned)> &job) {
    std::unique_lock<std::mutex> lock(mutex_);
    job_ = &job, active_ = work == StagingWork::Copy ? copy_parts_ : parts_, pending_ = parts_ - 1, ++generation_;
    wake_.notify_all();
    lock.unlock();
    job(0, active_);
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
      const unsigned active = active_;
      lock.unlock();
      if (i < active) (*job_)(i, active);
      lock.lock();
      if (--pending_ == 0) done_.notify_one();
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_, done_;
  std::vector<std::thread> workers_;
  const unsigned copy_parts_, parts_;  // a copy's threads, and a conversion's (every one)
  unsigned active_ = 1, pending_ = 0;  // the run's parts, and the workers yet to finish it
  unsigned long generation_ = 0;
  const std::function<void(unsigned, unsigned)> *job_ = nullptr;
};

// One pool per device, used by one copy at a time: the threads are the
// bandwidth, and each device's link gets threads of its own, so that the
// GPUs of a split job all stream from pageable memory at once.
struct SharedPool {
  explicit SharedPool(StagingThreads n) : pool(n) {}
  std::mutex busy;
  CopyPool pool;
};
// Made at the device's first staging, for the device set of then.
SharedPool &shared_pool() {
  static std::mutex made;
  static std::map<int, SharedPool *> *pools = new std::map<int, SharedPool *>;  // threads outlive every copier
  std::lock_guard<std::mutex> lock(made);
  SharedPool *&p = (*pools)[device()];
  if (!p)
    p = new SharedPool(staging_threads(std::thread::hardware_concurrency(),
                                       static_cast<unsigned>(devices().size())));
  return *p;
}

// Device bytes [off, off + len) of a block of rows of `width` bytes,
// back to back there, between `at` in a slot and a host array whose rows
// lie `pitch` bytes apart (a plain range: one row, pitch = width).
HostCopier::Piece strip(char *host, size_t pitch, size_t width, bool to_slot) {
  return [=](char *at, size_t off, size_t len) {
    for (size_t x = 0; x < len;) {
      const size_t from = off + x, row = from / width, col = from % width, n = std::min(len - x, width - col);
      char *h = host + row * pitch + col;
      if (to_slot)
        std::memcpy(at + x, h, n);
      else
        std::memcpy(h, at + x, n);
      x += n;
    }
  };
}

// A staged copy's blocks on the staging threads: each thread takes and
// works blocks until none is left, and the calling thread (part 0) also
// drives the copy, step() between its blocks (its DMAs queued as pieces
// complete), until step says the copy is over or fails (why set).
bool relay_on_threads(Relay &relay, const HostCopier::Piece &work, StagingWork kind, char *const *slots,
                      const std::function<int(size_t)> &slot_of, const std::function<bool(bool *over)> &step) {
  bool ok = true;
  on_staging_threads(kind, [&](unsigned part, unsigned) {
    for (;;) {
      if (part == 0) {
        bool over = false;
        if (!step(&over)) {
          ok = false;
          relay.fail();
          return;
        }
        if (over) return;
      }
      Relay::Block b;
      const Relay::Take took = relay.take(&b);
      if (took == Relay::Take::Got) {
        work(slots[slot_of(b.piece)] + b.inner, relay.offset(b.piece) + b.inner, b.len);
        relay.did(b);
      } else if (took == Relay::Take::NoneLeft && part != 0) {
        return;
      } else {
        std::this_thread::yield();
      }
    }
  });
  return ok;
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

StagingThreads staging_threads(unsigned cores, unsigned gpus) {
  const unsigned spare = cores > 2 ? cores - 2 : 1;
  const unsigned copy = std::min(12u, spare);
  return {copy, gpus > 1 ? copy : std::max(copy, std::min(24u, spare))};
}

void on_staging_threads(StagingWork work, const std::function<void(unsigned part, unsigned parts)> &job) {
  SharedPool &p = shared_pool();
  std::lock_guard<std::mutex> lock(p.busy);
  p.pool.run(work, job);
}

HostCopier::~HostCopier() {
  if (opener_) cudaStreamDestroy(opener_);
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
  if (!opener_) GPUFFTW_CK(cudaStreamCreateWithFlags(&opener_, cudaStreamNonBlocking), why);
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
  return stage_to_device(dst, bytes, strip(const_cast<char *>(static_cast<const char *>(src)), bytes, bytes, true),
                         StagingWork::Copy, stream, why);
}

bool HostCopier::rows_to_device(void *dst, const void *src, size_t pitch, size_t width, size_t rows,
                                cudaStream_t stream, std::string *why) {
  if (memory_type(src) == Memory::Pinned) {
    GPUFFTW_CK(cudaMemcpy2DAsync(dst, width, src, pitch, width, rows, cudaMemcpyHostToDevice, stream), why);
    return true;
  }
  return stage_to_device(dst, width * rows, strip(const_cast<char *>(static_cast<const char *>(src)), pitch, width, true),
                         StagingWork::Copy, stream, why);
}

bool HostCopier::to_host(void *dst, const void *src, size_t bytes, cudaStream_t stream, std::string *why) {
  if (memory_type(dst) == Memory::Pinned) {
    GPUFFTW_CK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, stream), why);
    return true;
  }
  return stage_rows_to_host(static_cast<const char *>(src), bytes, bytes, 1,
                            strip(static_cast<char *>(dst), bytes, bytes, false), StagingWork::Copy, stream, why);
}

bool HostCopier::rows_to_host(void *dst, size_t pitch, const void *src, size_t spitch, size_t width, size_t rows,
                              cudaStream_t stream, std::string *why) {
  if (memory_type(dst) == Memory::Pinned) {
    GPUFFTW_CK(cudaMemcpy2DAsync(dst, pitch, src, spitch, width, rows, cudaMemcpyDeviceToHost, stream), why);
    return true;
  }
  return stage_rows_to_host(static_cast<const char *>(src), spitch, width, rows,
                            strip(static_cast<char *>(dst), pitch, width, false), StagingWork::Copy, stream, why);
}

// One more piece opens to the staging threads once the work `done`
// stands for has run: a DMA from or into the piece's slot.
bool HostCopier::open_when(cudaEvent_t done, Relay &relay, std::string *why) {
  GPUFFTW_CK(cudaStreamWaitEvent(opener_, done, 0), why);
  GPUFFTW_CK(cudaLaunchHostFunc(opener_, Relay::open_one, &relay), why);
  return true;
}

// The host functions queued for `relay` have run (after a failure, with
// some of them still queued, before the relay goes).
static void settle(cudaStream_t opener) { cudaStreamSynchronize(opener); }

bool HostCopier::staged_to_device(void *dst, size_t bytes, const Piece &fill, cudaStream_t stream, std::string *why) {
  return stage_to_device(dst, bytes, fill, StagingWork::Convert, stream, why);
}

// The pieces are filled while the DMAs of earlier ones run; a piece opens
// to the threads when the DMA that last read its slot has landed. The
// first piece's slot is waited for here (the oldest of the three: an
// earlier call's DMA from it has mostly landed), the next two's through
// the opener, so that a copy made a chunk at a time fills its first piece
// while the last chunk's DMAs still run.
bool HostCopier::stage_to_device(void *dst, size_t bytes, const Piece &fill, StagingWork work, cudaStream_t stream,
                                 std::string *why) {
  if (!ensure_slots(why)) return false;
  Relay relay(bytes, piece_);
  const size_t pieces = relay.pieces();
  const int first = take_slots(pieces);
  auto slot_of = [&](size_t k) { return static_cast<int>((first + k) % kSlots); };
  if (pieces > 0) {
    GPUFFTW_CK(cudaEventSynchronize(done_[slot_of(0)]), why);
    relay.open_to(1);
  }
  size_t issued = 0;
  auto step = [&](bool *over) -> bool {
    for (; issued < pieces && relay.complete(issued); ++issued) {
      const int s = slot_of(issued);
      GPUFFTW_CK(cudaMemcpyAsync(static_cast<char *>(dst) + relay.offset(issued), slot_[s], relay.length(issued),
                                 cudaMemcpyHostToDevice, stream),
                 why);
      GPUFFTW_CK(cudaEventRecord(done_[s], stream), why);
      if (issued + kSlots < pieces && !open_when(done_[s], relay, why)) return false;
    }
    *over = issued == pieces;
    return true;
  };
  bool ok = true;
  for (size_t k = 1; ok && k < std::min<size_t>(pieces, kSlots); ++k) ok = open_when(done_[slot_of(k)], relay, why);
  ok = ok && relay_on_threads(relay, fill, work, slot_, slot_of, step);
  if (!ok) settle(opener_);
  return ok;
}

bool HostCopier::staged_to_host(const void *src, size_t bytes, const Piece &drain, cudaStream_t stream,
                                std::string *why) {
  return stage_rows_to_host(static_cast<const char *>(src), bytes, bytes, 1, drain, StagingWork::Convert, stream, why);
}

bool HostCopier::staged_rows_to_host(const char *src, size_t pitch, size_t width, size_t rows, const Piece &drain,
                                     cudaStream_t stream, std::string *why) {
  return stage_rows_to_host(src, pitch, width, rows, drain, StagingWork::Convert, stream, why);
}

// The DMAs of the next pieces run while earlier ones are drained; a piece
// opens to the threads when its DMA has landed.
bool HostCopier::stage_rows_to_host(const char *src, size_t pitch, size_t width, size_t rows, const Piece &drain,
                                    StagingWork work, cudaStream_t stream, std::string *why) {
  if (!ensure_slots(why)) return false;
  Relay relay(width * rows, piece_);
  const size_t pieces = relay.pieces();
  const int first = take_slots(pieces);
  auto slot_of = [&](size_t k) { return static_cast<int>((first + k) % kSlots); };
  size_t issued = 0, drained = 0;
  auto issue = [&](size_t k) -> bool {
    const int s = slot_of(k);
    // The slot may still feed a copy to the device queued on another
    // stream (the host has filled it; its DMA has not run yet).
    GPUFFTW_CK(cudaStreamWaitEvent(stream, done_[s], 0), why);
    if (!rows_from_device(slot_[s], src, pitch, width, relay.offset(k), relay.length(k), stream, why)) return false;
    GPUFFTW_CK(cudaEventRecord(done_[s], stream), why);
    return open_when(done_[s], relay, why);
  };
  bool ok = true;
  for (; ok && issued < std::min<size_t>(pieces, kSlots); ++issued) ok = issue(issued);
  auto step = [&](bool *over) -> bool {
    for (; drained < pieces && relay.complete(drained); ++drained)
      if (drained + kSlots < pieces && !issue(issued++)) return false;
    *over = drained == pieces;
    return true;
  };
  ok = ok && relay_on_threads(relay, drain, work, slot_, slot_of, step);
  if (!ok) settle(opener_);
  return ok;
}

}  // namespace gpufftw::engine
