// The GPU side over the engine (engine/engine.h) and its plans (gpu_plan.h).
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

  Memory memory(const void *array) override {
    switch (engine::memory_type(array)) {
      case engine::Memory::Pageable: return Memory::Pageable;
      case engine::Memory::Pinned: return Memory::Pinned;
      case engine::Memory::Device: return Memory::Device;
      case engine::Memory::Managed: return Memory::Managed;
    }
    return Memory::Pageable;
  }

  // The engine's plan decides itself whether it spreads over the device set
  // (gpu_plan_placement says where it went): the engine has no way to be
  // asked for the set alone, which is why the set is never priced (below).
  std::unique_ptr<Plan> plan(const Problem &p, Spread spread, std::string *why_not) override {
    if (spread == Spread::Set) {
      *why_not = "the engine takes no plan for the GPU set alone";
      return nullptr;
    }
    // The store first: the engine keeps its kernel picks there
    // (engine/kernels/own_kernel.h).
    dispatch_store();
    return make_gpu_plan(p, why_not);
  }

  // The model's tables are one GPU's: the set has no price, and is not
  // offered.
  std::optional<double> price(const Problem &p, bool pinned, Spread spread, const GpuRates &rates) override {
    if (spread == Spread::Set) return std::nullopt;
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
