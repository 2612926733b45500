// The GPU side over the engine (engine/engine.h) and its plans (gpu_plan.h).
#include "dispatch/dispatch.h"
#include "dispatch/gpu_plan.h"
#include "dispatch/gpu_side.h"
#include "dispatch/store_instance.h"
#include "engine/engine.h"

namespace gpufftw {
namespace {

class EngineGpuSide final : public GpuSide {
 public:
  bool named_by_driver() override { return !driver_fingerprint().empty(); }
  bool available(std::string *why_not) override { return engine::gpu_available(why_not); }
  bool lost(std::string *why) override { return gpu_engine_lost(why); }

  Memory memory(const void *array) override { return engine::memory_type(array); }

  // The store first, here and for a plan: the engine keeps its kernel
  // picks there (engine/in_core/own_kernel.h), and our kernels' solver
  // asks after them.
  std::vector<SolverOffer> offers(const Problem &p, Spread spread) override {
    dispatch_store();
    return gpu_offers(p, spread);
  }

  std::unique_ptr<Plan> plan(const Problem &p, Spread spread, Fp16Way way, const std::string &solver,
                             std::string *made_by, std::string *why_not) override {
    dispatch_store();
    std::unique_ptr<Plan> plan = make_gpu_plan(p, spread, way, solver, why_not);
    // The half job declined the layout, and the engine planned the
    // problem in single precision: that way is f32's.
    if (plan && way != Fp16Way::Single && half_wanted(p) && !gpu_plan_half(*plan))
      return *why_not = "the half job did not take it (" + gpu_plan_path(*plan) + ")", nullptr;
    if (!plan) return nullptr;
    *made_by = gpu_plan_solver(*plan);
    // The named solver made no job and the engine went on to another: its
    // path says why where the named one left word ("cuFFT (tuned: ...)").
    if (!solver.empty() && *made_by != solver) *why_not = gpu_plan_path(*plan);
    return plan;
  }

  // The set from its own table, where it has a cell as large as the
  // problem; one GPU, and the engine's own placement, from one GPU's.
  std::optional<double> price(const Problem &p, bool pinned, Spread spread, const GpuRates &rates) override {
    if (spread == Spread::Set) return gpu_set_seconds(p, pinned, rates);
    return gpu_seconds(p, pinned, rates);
  }

  // Measuring the device's copy starts CUDA: GPUFFTW_PRECISION=fp16 asks
  // for the GPU, and the order of the ways on the device depends on it.
  std::optional<HalfRates> half_rates(const GpuRates &rates, std::string *why_not) override {
    const double device = engine::device_copy_rate(why_not);
    if (device <= 0) return std::nullopt;
    return gpufftw::half_rates(rates, engine::host_half_rate(), device);
  }

  void use_rates(const GpuRates &rates) override {
    engine::set_rates({rates.link_rate, rates.device_rate, rates.peer_rate});
  }
};

}  // namespace

GpuSide &engine_gpu_side() {
  // Never destroyed: plans may be made from other libraries' destructors.
  static EngineGpuSide *side = new EngineGpuSide;
  return *side;
}

}  // namespace gpufftw
