#include "dispatch/cpu_side.h"
#include "fallback/cpu_plan.h"

namespace gpufftw {
namespace {

class FftwCpuSide final : public CpuSide {
 public:
  std::unique_ptr<Plan> plan(const Problem &problem, int threads, double time_limit) override {
    return cpu_plan_with_threads(problem, threads, time_limit);
  }
  int threads(Precision precision) override { return planner_threads(precision); }
};

}  // namespace

CpuSide &fftw_cpu_side() {
  // Never destroyed: plans may be made from other libraries' destructors.
  static FftwCpuSide *side = new FftwCpuSide;
  return *side;
}

}  // namespace gpufftw
