#include "shim/planner.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <tuple>

#include "core/config.h"
#include "core/log.h"
#include "dispatch/dispatch.h"
#include "fallback/cpu_plan.h"
#include "fallback/real_fftw.h"
#include "shim/compare.h"
#include "shim/foreign.h"
#include "shim/report.h"

namespace gpufftw {
namespace {

std::atomic<gpufftw_mode> &mode_setting() {
  static std::atomic<gpufftw_mode> m{config().mode};
  return m;
}

}  // namespace

void set_mode(gpufftw_mode m) { mode_setting().store(m); }
gpufftw_mode mode() { return mode_setting().load(); }

Plan *make_plan(const Problem &problem) {
  GPUFFTW_PLANNER_LOCKED;
  arm_exit_report();
  check_real_fftw_mpi_once();
  take_room_note();  // one the comparison's reference plans left outside a plan call
  Dispatched d;
  const auto t0 = std::chrono::steady_clock::now();
  if (valid(problem))
    d = dispatch(problem, mode_setting().load());
  else
    d.why = "not a valid problem";
  std::unique_ptr<Plan> &plan = d.plan;
  d.why += placement_note(plan.get()) + precision_note(problem, plan.get()) + take_room_note();
  const char *where = where_name(plan ? plan->where() : Where::None);
  const auto planned = std::chrono::steady_clock::now() - t0;
  GPUFFTW_LOG(Debug, "plan %s -> %s in %.3f ms: %s", problem.describe().c_str(), where,
              std::chrono::duration<double, std::milli>(planned).count(), d.why.c_str());
  PlanStats *stats = stats_for(problem, where, d.why);
  stats->plans.fetch_add(1, std::memory_order_relaxed);
  stats->plan_ns.fetch_add(std::chrono::duration_cast<std::chrono::nanoseconds>(planned).count(),
                           std::memory_order_relaxed);
  if (!plan) return nullptr;
  static std::atomic<uint64_t> next_id{0};
  plan->stats = stats;
  plan->id = ++next_id;
  plan->reason = std::move(d.why);
  if (!config().report && !compare_enabled() && log_level() < LogLevel::Debug)
    std::tie(plan->direct, plan->direct_arg) = plan->direct_execute();
  return plan.release();
}

}  // namespace gpufftw
