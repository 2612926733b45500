#include "dispatch/dispatch.h"

#include "core/config.h"
#include "dispatch/cost_model.h"
#include "dispatch/planner.h"
#include "dispatch/reading_input.h"
#include "dispatch/timing.h"
#if GPUFFTW_HAVE_CUDA
#include "dispatch/gpu_plan.h"
#include "dispatch/store_instance.h"
#endif

namespace gpufftw {
namespace {

std::optional<Fp16Way> forced_way() {
  Fp16Way w;
  if (parse_way(config().fp16_way, &w)) return w;
  return std::nullopt;
}

// The library's planner: the engine's GPU side where built with CUDA
// (none without: every plan runs on the real FFTW), the real FFTW's
// side, the process's store, and the timing harness.
const Planner &library_planner() {
  // Never destroyed: plans may be made from other libraries' destructors.
  static const Planner *planner = new Planner{
#if GPUFFTW_HAVE_CUDA
      &engine_gpu_side(), &fftw_cpu_side(), dispatch_store,
#else
      nullptr, &fftw_cpu_side(), nullptr,
#endif
      [](Plan *plan, double enough) { return time_execute(plan, enough); }, forced_way(), zero_input};
  return *planner;
}

}  // namespace

Dispatched dispatch(const Problem &p, gpufftw_mode mode) {
#if GPUFFTW_HAVE_CUDA
  if (mode != GPUFFTW_MODE_CPU) {
    // The store's folder and file are checked at the first plan, GPU or
    // not, so that a bad GPUFFTW_CACHE_DIR or dispatch.txt is told at once.
    static const bool checked = (dispatch_store().check(), true);
    (void)checked;
    const CalibrationNotice notice;
    return choose(library_planner(), p, mode);
  }
#endif
  return choose(library_planner(), p, mode);
}

double cpu_model_seconds(const Problem &p, int threads) {
#if GPUFFTW_HAVE_CUDA
  const CalibrationNotice notice;
  return cpu_seconds(p, dispatch_store().cpu_rates(p.precision, threads));
#else
  (void)p;
  (void)threads;
  return -1;
#endif
}

std::string placement_note(const Plan *plan) {
#if GPUFFTW_HAVE_CUDA
  if (plan && plan->where() == Where::Gpu) return "; on " + gpu_plan_placement(*plan);
#else
  (void)plan;
#endif
  return "";
}

}  // namespace gpufftw
