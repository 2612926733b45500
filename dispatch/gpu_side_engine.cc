// The GPU side over the engine (engine/engine.h) and its plans (gpu_plan.h).
#include "dispatch/dispatch.h"
#include "dispatch/fp16_plan.h"
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

  std::unique_ptr<Plan> plan(const Problem &p, Spread spread, std::string *why_not) override {
    // The store first: the engine keeps its kernel picks there
    // (engine/in_core/own_kernel.h).
    dispatch_store();
    return make_gpu_plan(p, spread, why_not);
  }

  // The set from its own table, where it has a cell as large as the
  // problem; one GPU, and the engine's own placement, from one GPU's; an
  // fp16 problem at its cheapest way's price there (fp16_price).
  std::optional<double> price(const Problem &p, bool pinned, Spread spread, const GpuRates &rates) override {
    if (half_wanted(p)) return fp16_price(p, pinned, spread, rates);
    if (spread == Spread::Set) return gpu_set_seconds(p, pinned, rates);
    return gpu_seconds(p, pinned, rates);
  }
};

}  // namespace

GpuSide &engine_gpu_side() {
  // Never destroyed: plans may be made from other libraries' destructors.
  static EngineGpuSide *side = new EngineGpuSide;
  return *side;
}

}  // namespace gpufftw
