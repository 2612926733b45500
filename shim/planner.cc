#include "shim/planner.h"

#include <atomic>

#include "fallback/cpu_plan.h"
#if GPUFFTW_HAVE_CUDA
#include "shim/gpu_plan.h"
#endif
#include "shim/config.h"
#include "shim/report.h"

namespace gpufftw {
namespace {

std::atomic<gpufftw_mode> &mode_setting() {
  static std::atomic<gpufftw_mode> m{config().mode};
  return m;
}

std::unique_ptr<Plan> cpu_plan(const Problem &p) {
  return p.precision == Precision::F32 ? make_cpu_plan<float>(p) : make_cpu_plan<double>(p);
}

// Until dispatch measures (its own issue), auto sends problems of at least
// this many points to the GPU: below it, a launch and a sync cost more than
// the real FFTW needs (DESIGN.md, where the time goes).
constexpr int64_t kAutoGpuPoints = int64_t{1} << 18;

// The GPU's plan where the mode and the problem allow one; else nullptr,
// with the reason logged at debug.
std::unique_ptr<Plan> gpu_plan(const Problem &p) {
  const gpufftw_mode m = mode_setting().load();
  std::string why;
  if (m == GPUFFTW_MODE_CPU)
    why = "GPUFFTW_MODE=cpu";
  else if (p.flags & FFTW_WISDOM_ONLY)
    why = "FFTW_WISDOM_ONLY: the real FFTW's wisdom decides";
  else if (m == GPUFFTW_MODE_AUTO && p.transform_size() * p.batch() < kAutoGpuPoints)
    why = "too small for the GPU to pay (auto)";
#if GPUFFTW_HAVE_CUDA
  else if (auto plan = make_gpu_plan(p, &why))
    return plan;
#else
  else
    why = "built without CUDA";
#endif
  GPUFFTW_LOG(Debug, "%s stays on the CPU: %s", p.describe().c_str(), why.c_str());
  return nullptr;
}

}  // namespace

void set_mode(gpufftw_mode m) { mode_setting().store(m); }
gpufftw_mode mode() { return mode_setting().load(); }

Plan *make_plan(const Problem &problem) {
  arm_exit_report();
  std::unique_ptr<Plan> plan;
  if (valid(problem)) plan = gpu_plan(problem);
  if (!plan && valid(problem)) plan = cpu_plan(problem);
  const char *where = plan ? plan->where() : "none";
  GPUFFTW_LOG(Debug, "plan %s -> %s", problem.describe().c_str(), where);
  PlanStats *stats = stats_for(problem, where);
  stats->plans.fetch_add(1, std::memory_order_relaxed);
  if (!plan) return nullptr;
  static std::atomic<uint64_t> next_id{0};
  plan->stats = stats;
  plan->id = ++next_id;
  return plan.release();
}

}  // namespace gpufftw
