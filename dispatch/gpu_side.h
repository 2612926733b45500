// What dispatch asks of the GPU: whether one can be used, what memory an
// array is, a plan for a problem on one GPU or over the device set, and
// the model's price of each. The engine answers in the CUDA build
// (gpu_side_engine.cc); a build without CUDA has no GPU side, and the
// tests of the policy give one whose answers they set.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "core/memory_kind.h"
#include "core/plan.h"
#include "core/where.h"
#include "dispatch/cost_model.h"

namespace gpufftw {

class GpuSide {
 public:
  virtual ~GpuSide() = default;

  // Whether the NVIDIA driver names the machine's GPUs without a CUDA
  // context: where it does, CUDA starts only for a plan that goes to the
  // GPU (or to calibrate it), and a GPU that then cannot be used fails its
  // calibration instead.
  virtual bool named_by_driver() = 0;
  // Whether a GPU can be used; why not where it cannot.
  virtual bool available(std::string *why_not) = 0;
  // True once a sticky error lost the GPU for the process, and why.
  virtual bool lost(std::string *why) = 0;
  virtual Memory memory(const void *array) = 0;
  // The GPU's plan of the problem, spread so, or nullptr with why not.
  virtual std::unique_ptr<Plan> plan(const Problem &problem, Spread spread, std::string *why_not) = 0;
  // The model's execute time of the problem spread so, from the GPU's
  // calibrated rates; none where the model has no data for it (that way
  // is then not offered).
  virtual std::optional<double> price(const Problem &problem, bool pinned, Spread spread, const GpuRates &rates) = 0;
};

// The engine's side (CUDA build only).
GpuSide &engine_gpu_side();

}  // namespace gpufftw
