#include "engine/multi/whole_on_owner.h"

#include <cuda_runtime_api.h>

#include "engine/device/context.h"

namespace gpufftw::engine {

WholeOnOwner::~WholeOnOwner() {
  if (!job_) return;
  DeviceScope on(device_);
  job_.reset();
}

bool WholeOnOwner::run(const void *array, void *const in[2], void *const out[2], std::string *why) {
  int owner = fallback_device_;
  cudaPointerAttributes attr{};
  if (cudaPointerGetAttributes(&attr, array) == cudaSuccess && attr.type == cudaMemoryTypeDevice)
    owner = attr.device;
  else
    cudaGetLastError();
  std::lock_guard<std::mutex> lock(mutex_);
  DeviceScope on(owner);
  if (!on.ok()) return *why = on.why(), false;
  if (!job_ || device_ != owner) {
    job_.reset();
    if (!(job_ = one_gpu_(g_, why))) return false;
    device_ = owner;
  }
  return job_->run(in, out, why);
}

}  // namespace gpufftw::engine
