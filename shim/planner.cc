#include "shim/planner.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <tuple>

#include "fallback/cpu_plan.h"
#include "fallback/real_fftw.h"
#include "shim/compare.h"
#include "shim/config.h"
#include "shim/dispatch.h"
#include "shim/log.h"
#include "shim/precision.h"
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

namespace {
std::atomic<int> threads_setting[2] = {1, 1};
}

void note_planner_threads(Precision precision, int nthreads) {
  threads_setting[precision == Precision::F32 ? 0 : 1].store(std::max(1, nthreads));  // FFTW clamps so too
}
int planner_threads(Precision precision) { return threads_setting[precision == Precision::F32 ? 0 : 1].load(); }

namespace {

template <class R>
std::unique_ptr<Plan> cpu_plan_typed(const Problem &p, int threads) {
  const RealFftw<R> &f = real_fftw<R>();
  const int asked = planner_threads(p.precision);
  if (threads == asked || !f.threads_loaded) return make_cpu_plan<R>(p);
  // fftw_plan_with_nthreads is "the maximum number" of threads (FFTW's
  // manual); for the time of this plan it is another. The planner's lock
  // is held, so no other plan sees the change.
  f.plan_with_nthreads(threads);
  std::unique_ptr<Plan> plan = make_cpu_plan<R>(p);
  f.plan_with_nthreads(asked);
  return plan;
}

}  // namespace

std::unique_ptr<Plan> cpu_plan_with_threads(const Problem &p, int threads) {
  if (threads == 0) threads = planner_threads(p.precision);
  return p.precision == Precision::F32 ? cpu_plan_typed<float>(p, threads) : cpu_plan_typed<double>(p, threads);
}

std::recursive_mutex &planner_mutex() {
  static std::recursive_mutex *m = new std::recursive_mutex;  // never destroyed: plans outlive statics
  return *m;
}

Plan *make_plan(const Problem &problem) {
  GPUFFTW_PLANNER_LOCKED;
  arm_exit_report();
  Dispatched d;
  const auto t0 = std::chrono::steady_clock::now();
  if (valid(problem))
    d = dispatch(problem, mode_setting().load());
  else
    d.why = "not a valid problem";
  std::unique_ptr<Plan> &plan = d.plan;
  d.why += precision_note(problem, plan.get());
  const char *where = plan ? plan->where() : "none";
  GPUFFTW_LOG(Debug, "plan %s -> %s in %.3f ms: %s", problem.describe().c_str(), where,
              std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count(), d.why.c_str());
  PlanStats *stats = stats_for(problem, where, d.why);
  stats->plans.fetch_add(1, std::memory_order_relaxed);
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
