#include "dispatch/devices.h"

#if GPUFFTW_HAVE_CUDA
#include "engine/engine.h"
#endif

namespace gpufftw {

#if GPUFFTW_HAVE_CUDA

bool gpu_usable() { return engine::gpu_available(); }

std::vector<int> gpu_devices() { return engine::devices(); }

bool set_gpu_devices(const std::vector<int> &set, std::string *why) { return engine::set_devices(set, why); }

GpuMemoryHeld gpu_memory_held() {
  GpuMemoryHeld held;
  engine::pinned_bytes(&held.pinned_live, &held.pinned_kept);
  held.device_used = engine::device_memory_used();
  return held;
}

void *alloc_pinned(size_t bytes) { return engine::alloc_pinned(bytes); }

bool free_pinned(void *p) { return engine::free_pinned(p); }

#else

bool gpu_usable() { return false; }

std::vector<int> gpu_devices() { return {}; }

bool set_gpu_devices(const std::vector<int> &, std::string *why) {
  *why = "this gpufftw is built without CUDA";
  return false;
}

GpuMemoryHeld gpu_memory_held() { return {}; }

void *alloc_pinned(size_t) { return nullptr; }

bool free_pinned(void *) { return false; }

#endif

}  // namespace gpufftw
