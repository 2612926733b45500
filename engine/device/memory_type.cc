#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include <atomic>

#include "engine/engine.h"

namespace gpufftw::engine {
namespace {

// Until someone in the process has loaded the CUDA driver, no pointer can
// be pinned or on a device; asking the runtime would create a context
// (hundreds of milliseconds) for nothing. Once seen, the driver stays, so
// the engine's calls on every execute skip the loader's lock.
bool cuda_driver_loaded() {
  static std::atomic<bool> seen{false};
  if (seen.load(std::memory_order_relaxed)) return true;
  void *h = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
  if (!h) return false;
  dlclose(h);
  seen.store(true, std::memory_order_relaxed);
  return true;
}

}  // namespace

Memory memory_type(const void *p) {
  // A lost engine still asks (a query neither hangs nor faults): the
  // real FFTW must not be handed a device pointer.
  if (!p || !cuda_driver_loaded() || !(gpu_available() || gpu_lost())) return Memory::Pageable;
  cudaPointerAttributes a{};
  if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
    cudaGetLastError();  // clear it: an unknown pointer is not an error here
    return Memory::Pageable;
  }
  switch (a.type) {
    case cudaMemoryTypeHost: return Memory::Pinned;
    case cudaMemoryTypeDevice: return Memory::Device;
    case cudaMemoryTypeManaged: return Memory::Managed;
    default: return Memory::Pageable;
  }
}

}  // namespace gpufftw::engine
