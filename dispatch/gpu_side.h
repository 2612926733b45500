// What dispatch asks of the GPU: whether one can be used, what memory an
// array is, the engine's solvers that take a problem and their prices, a
// plan for a problem on one GPU or over the device set, computed one fp16
// way with one solver first, the model's price of each, the rates the
// fp16 ways are priced by; and what it tells the GPU: the calibrated rates its
// own plans are priced by. The engine answers in the CUDA build
// (gpu_side_engine.cc); a build without CUDA has no GPU side, and the
// tests of the policy give one whose answers they set.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/memory_kind.h"
#include "core/plan.h"
#include "core/where.h"
#include "dispatch/cost_model.h"
#include "dispatch/fp16_ways.h"

namespace gpufftw {

// One of the engine's solvers that takes a problem (engine.h's Offer): its
// name, and its price in seconds from the bytes it moves.
struct SolverOffer {
  std::string solver;
  double seconds = 0;
  // Made only where the cheaper make no job (engine.h's Offer): a way of
  // its own only where the program asks for every plan timed.
  bool fallback = false;
};

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
  // The engine's solvers that would make the problem's job spread so in
  // single precision (in the problem's own, where half_wanted() does not
  // ask for half), each priced, cheapest first; none where the GPU cannot
  // take it.
  virtual std::vector<SolverOffer> offers(const Problem &problem, Spread spread) = 0;
  // The GPU's plan of the problem, spread so, computed `way` (Single: in
  // single precision, as every problem half_wanted() does not ask for),
  // made by `solver` first (an offer's; "": the engine's cheapest), or
  // nullptr with why not: a way in half whose half job does not take the
  // problem's layout makes no plan. `made_by`: the solver whose job the
  // plan runs, another than `solver` where that made none and the engine
  // went on (the plan is then that solver's way, not `solver`'s, and
  // `why_not` says why `solver` made none).
  virtual std::unique_ptr<Plan> plan(const Problem &problem, Spread spread, Fp16Way way, const std::string &solver,
                                     std::string *made_by, std::string *why_not) = 0;
  // The model's execute time of the problem spread so in single
  // precision, from the GPU's calibrated rates; none where the model has
  // no data for it (that way is then not offered).
  virtual std::optional<double> price(const Problem &problem, bool pinned, Spread spread, const GpuRates &rates) = 0;
  // The rates the fp16 ways are priced by (fp16_ways.h's half_rates: the
  // calibrated table's and this process's measurements of the host's
  // conversion and a device copy), or none, with why not, where they
  // cannot be measured.
  virtual std::optional<HalfRates> half_rates(const GpuRates &rates, std::string *why_not) = 0;
  // Hands the GPU the calibrated rates (GpuRates' link, device and peer
  // rates) that its plans from now on order their ways of running by.
  virtual void use_rates(const GpuRates &rates) = 0;
};

// The engine's side (CUDA build only).
GpuSide &engine_gpu_side();

}  // namespace gpufftw
