#include <mutex>
#include <unordered_set>

#include "engine/context.h"
#include "engine/engine.h"

namespace gpufftw::engine {
namespace {

// Which pointers are pinned, so fftw_free can tell them from malloc's.
struct Registry {
  std::mutex mutex;
  std::unordered_set<void *> pinned;
};
Registry &registry() {
  static Registry *r = new Registry;  // fftw_free may run after static destructors
  return *r;
}

}  // namespace

void *alloc_pinned(size_t bytes) {
  if (!gpu_available() || fault_injected("alloc", nullptr)) return nullptr;
  void *p = nullptr;
  if (cudaHostAlloc(&p, bytes, cudaHostAllocPortable) != cudaSuccess) {
    cudaGetLastError();
    return nullptr;
  }
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.pinned.insert(p);
  return p;
}

bool free_pinned(void *p) {
  Registry &r = registry();
  {
    std::lock_guard<std::mutex> lock(r.mutex);
    if (!r.pinned.erase(p)) return false;
  }
  // After the device went away this fails and the pages stay mapped; the
  // program goes on.
  if (cudaFreeHost(p) != cudaSuccess) cudaGetLastError();
  return true;
}

}  // namespace gpufftw::engine
