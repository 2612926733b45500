#include "shim/trial_plan.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>

#include "shim/log.h"
#include "shim/report.h"

namespace gpufftw {
namespace {

double fastest(const std::vector<double> &v) { return *std::min_element(v.begin(), v.end()); }

bool is_gpu(const Plan &p) { return std::strcmp(p.where(), "gpu") == 0; }

std::string ms(double seconds) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g ms", 1e3 * seconds);
  return buf;
}

}  // namespace

double TrialPlan::steady_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

TrialPlan::TrialPlan(Problem problem, std::unique_ptr<Plan> lean, std::unique_ptr<Plan> other, MakeSide make_other,
                     Settled settled, Clock clock)
    : Plan(std::move(problem)),
      lean_(std::move(lean)),
      other_(std::move(other)),
      make_other_(std::move(make_other)),
      settled_(std::move(settled)),
      clock_(clock) {}

Plan *TrialPlan::current() const {
  Plan *c = chosen_.load(std::memory_order_acquire);
  return c ? c : lean_.get();
}

const char *TrialPlan::why() const {
  return chosen_.load(std::memory_order_acquire) ? why_.c_str() : reason.c_str();
}

void TrialPlan::execute(const Arrays &arrays) {
  if (Plan *c = chosen_.load(std::memory_order_acquire)) return c->execute(arrays);
  std::unique_lock<std::mutex> lock(mutex_);
  if (Plan *c = chosen_.load(std::memory_order_relaxed)) {
    lock.unlock();
    return c->execute(arrays);
  }
  const int side = turn_ / kBlock % 2;
  if (side == 1 && !other_) {
    if (make_other_) other_ = make_other_();
    if (!other_) {
      settle(lean_.get(), std::string("the ") + (is_gpu(*lean_) ? "real FFTW" : "GPU") + " gave no plan to time");
      lock.unlock();
      return lean_->execute(arrays);
    }
  }
  Plan *p = side == 0 ? lean_.get() : other_.get();
  const double t0 = clock_();
  p->execute(arrays);
  const double s = clock_() - t0;
  if (turn_ % kBlock != 0) times_[side].push_back(s);  // a block's first pays for the switch
  if (++turn_ < kTurns) return;
  const double lean_s = fastest(times_[0]), other_s = fastest(times_[1]);
  Plan *chosen = lean_s <= other_s ? lean_.get() : other_.get();
  const bool gpu = is_gpu(*chosen);
  const double gpu_s = is_gpu(*lean_) ? lean_s : other_s, cpu_s = is_gpu(*lean_) ? other_s : lean_s;
  settle(chosen, "its first executes: gpu " + ms(gpu_s) + ", cpu " + ms(cpu_s));
  if (settled_) settled_(gpu, gpu_s, cpu_s);
}

// Under mutex_, before chosen_ is published: executes that find it never
// touch the loser, which is freed (a GPU side holds device memory).
void TrialPlan::settle(Plan *chosen, const std::string &outcome) {
  why_ = reason + "; " + outcome + ": runs on the " + (is_gpu(*chosen) ? "gpu" : "cpu");
  GPUFFTW_LOG(Info, "plan %llu (%s) settled: %s", static_cast<unsigned long long>(id), problem().describe().c_str(),
              why_.c_str());
  // The report counts it where it now runs.
  if (PlanStats *from = stats.load(std::memory_order_relaxed)) {
    PlanStats *to = stats_for(problem(), chosen->where(), why_);
    if (to != from) {
      from->plans.fetch_sub(1, std::memory_order_relaxed);
      to->plans.fetch_add(1, std::memory_order_relaxed);
      stats.store(to, std::memory_order_relaxed);
    }
  }
  chosen_.store(chosen, std::memory_order_release);
  (chosen == lean_.get() ? other_ : lean_).reset();
}

}  // namespace gpufftw
