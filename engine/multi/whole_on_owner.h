// A split job's run on arrays in device memory: they lie on one GPU, so
// the whole geometry runs there, as a one-GPU job made at the first such
// run (and again where a later run's arrays lie on another GPU).
#pragma once

#include <memory>
#include <mutex>
#include <string>

#include "engine/engine.h"
#include "engine/solver/solver.h"

namespace gpufftw::engine {

class WholeOnOwner {
 public:
  WholeOnOwner(const Geometry &g, int fallback_device, OneGpuPlanner one_gpu)
      : g_(g), fallback_device_(fallback_device), one_gpu_(std::move(one_gpu)) {}
  ~WholeOnOwner();
  // Runs the whole geometry on the GPU that holds `array` (the device
  // array among in and out; the split's first GPU where CUDA cannot say).
  bool run(const void *array, void *const in[2], void *const out[2], std::string *why);

 private:
  Geometry g_;
  int fallback_device_;
  OneGpuPlanner one_gpu_;
  std::mutex mutex_;
  std::unique_ptr<FftJob> job_;
  int device_ = -1;
};

}  // namespace gpufftw::engine
