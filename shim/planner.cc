#include "shim/planner.h"

#include <atomic>

#include "fallback/cpu_plan.h"
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

}  // namespace

void set_mode(gpufftw_mode m) { mode_setting().store(m); }
gpufftw_mode mode() { return mode_setting().load(); }

Plan *make_plan(const Problem &problem) {
  arm_exit_report();
  std::unique_ptr<Plan> plan;
  if (valid(problem)) plan = cpu_plan(problem);
  const char *where = plan ? plan->where() : "none";
  GPUFFTW_LOG(Debug, "plan %s -> %s", problem.describe().c_str(), where);
  PlanStats *stats = stats_for(problem, where);
  stats->plans.fetch_add(1, std::memory_order_relaxed);
  if (!plan) return nullptr;
  plan->stats = stats;
  return plan.release();
}

}  // namespace gpufftw
