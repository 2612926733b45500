#include "dispatch/devices.h"

#include <atomic>
#include <mutex>

#if GPUFFTW_HAVE_CUDA
#include "engine/engine.h"
#endif

namespace gpufftw {
namespace {

std::atomic<unsigned long> questions{0};
void asked() { questions.fetch_add(1, std::memory_order_relaxed); }

std::mutex stand_in_mutex;
std::vector<int> &stand_in() {
  static std::vector<int> *set = new std::vector<int>;  // never destroyed: plans outlive statics
  return *set;
}

// The engine's set, or the build's none.
std::vector<int> own_devices();

}  // namespace

unsigned long gpu_questions() { return questions.load(std::memory_order_relaxed); }

void stand_in_devices(const std::vector<int> &set) {
  const std::lock_guard<std::mutex> lock(stand_in_mutex);
  stand_in() = set;
}

std::vector<int> gpu_devices() {
  asked();
  {
    const std::lock_guard<std::mutex> lock(stand_in_mutex);
    if (!stand_in().empty()) return stand_in();
  }
  return own_devices();
}

#if GPUFFTW_HAVE_CUDA

namespace {
std::vector<int> own_devices() { return engine::devices(); }
}  // namespace

bool gpu_usable() {
  asked();
  return engine::gpu_available();
}

bool set_gpu_devices(const std::vector<int> &set, std::string *why) {
  asked();
  return engine::set_devices(set, why);
}

GpuMemoryHeld gpu_memory_held() {
  asked();
  GpuMemoryHeld held;
  engine::pinned_bytes(&held.pinned_live, &held.pinned_kept);
  held.device_used = engine::device_memory_used();
  return held;
}

void *alloc_pinned(size_t bytes) {
  asked();
  return engine::alloc_pinned(bytes);
}

bool free_pinned(void *p) {
  asked();
  return engine::free_pinned(p);
}

#else

namespace {
std::vector<int> own_devices() { return {}; }
}  // namespace

bool gpu_usable() {
  asked();
  return false;
}

bool set_gpu_devices(const std::vector<int> &, std::string *why) {
  asked();
  *why = "this gpufftw is built without CUDA";
  return false;
}

GpuMemoryHeld gpu_memory_held() {
  asked();
  return {};
}

void *alloc_pinned(size_t) {
  asked();
  return nullptr;
}

bool free_pinned(void *) {
  asked();
  return false;
}

#endif

}  // namespace gpufftw
