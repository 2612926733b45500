#include "core/time_limit.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>

namespace gpufftw {
namespace {

std::atomic<double> limit_setting[2] = {-1.0, -1.0};

thread_local PlanDeadline *current = nullptr;

int slot(Precision precision) { return precision == Precision::F32 ? 0 : 1; }

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

void set_time_limit(Precision precision, double seconds) { limit_setting[slot(precision)].store(seconds); }
double time_limit(Precision precision) { return limit_setting[slot(precision)].load(); }

Deadline::Deadline(double limit_s) : limit_s_(limit_s < 0 ? -1 : limit_s), start_(now_s()) {}

Deadline Deadline::of(Precision precision) {
  const double own = time_limit(precision);
  const Deadline &outer = plan_deadline();
  if (!outer.bounded()) return Deadline(own);
  const double left = outer.left();
  return Deadline(own < 0 ? left : std::min(own, left));
}

double Deadline::spent() const { return now_s() - start_; }

std::string Deadline::bound_text(const std::string &unbounded) const {
  if (!bounded()) return unbounded;
  char text[64];
  std::snprintf(text, sizeof text, "%.1f s, what the program's time limit leaves", left());
  return text;
}

double Deadline::left() const {
  if (!bounded()) return HUGE_VAL;
  return std::max(0.0, limit_s_ - spent());
}

PlanDeadline::PlanDeadline(const Deadline &deadline) : deadline_(deadline), outer_(current) { current = this; }

PlanDeadline::~PlanDeadline() { current = outer_; }

OutsideThePlan::OutsideThePlan() : plans_(current), start_(now_s()) { current = nullptr; }

OutsideThePlan::~OutsideThePlan() {
  const double took = now_s() - start_;
  for (PlanDeadline *plan = plans_; plan; plan = plan->outer_) plan->deadline_.start_ += took;
  current = plans_;
}

const Deadline &plan_deadline() {
  static const Deadline unbounded(-1);
  return current ? current->deadline() : unbounded;
}

}  // namespace gpufftw
