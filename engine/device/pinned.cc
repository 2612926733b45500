#include <map>
#include <mutex>
#include <unordered_map>

#include "engine/device/context.h"
#include "engine/engine.h"

namespace gpufftw::engine {
namespace {

// Pinned blocks handed out (pointer -> size), and freed ones kept for the
// next request of the same size: pinning is slow (it maps and locks every
// page), and programs free and allocate the same sizes over and over.
struct Pool {
  static constexpr size_t kKeep = size_t{2} << 30;  // bytes kept unused at most
  std::mutex mutex;
  std::unordered_map<void *, size_t> live;
  std::multimap<size_t, void *> idle;
  size_t idle_bytes = 0;
};
Pool &pool() {
  static Pool *p = new Pool;  // fftw_free may run after static destructors
  return *p;
}

}  // namespace

void *alloc_pinned(size_t bytes) {
  if (!gpu_available() || fault_injected("alloc", nullptr)) return nullptr;
  Pool &p = pool();
  std::lock_guard<std::mutex> lock(p.mutex);
  void *block = nullptr;
  auto it = p.idle.find(bytes);
  if (it != p.idle.end()) {
    block = it->second;
    p.idle.erase(it);
    p.idle_bytes -= bytes;
  } else if (cudaHostAlloc(&block, bytes, cudaHostAllocPortable) != cudaSuccess) {
    cudaGetLastError();
    return nullptr;
  }
  p.live.emplace(block, bytes);
  return block;
}

void pinned_bytes(size_t *live, size_t *kept) {
  Pool &p = pool();
  std::lock_guard<std::mutex> lock(p.mutex);
  *live = 0;
  for (const auto &kv : p.live) *live += kv.second;
  *kept = p.idle_bytes;
}

bool free_pinned(void *block) {
  Pool &p = pool();
  std::lock_guard<std::mutex> lock(p.mutex);
  auto it = p.live.find(block);
  if (it == p.live.end()) return false;
  const size_t bytes = it->second;
  p.live.erase(it);
  if (p.idle_bytes + bytes <= Pool::kKeep) {
    p.idle.emplace(bytes, block);
    p.idle_bytes += bytes;
    return true;
  }
  // After the device went away this fails and the pages stay mapped; the
  // program goes on. A lost context is not called at all.
  if (gpu_lost()) return true;
  if (cudaFreeHost(block) != cudaSuccess) cudaGetLastError();
  return true;
}

}  // namespace gpufftw::engine
