// The program's bound on planning time, fftw(f)_set_timelimit, and the
// deadline one plan keeps to. FFTW's own planner keeps the limit in the
// planner, checks it between solvers, and once it has passed keeps the
// best plan found; gpufftw's planner, at every level (dispatch's
// CPU-against-GPU timing and its GPU readings, the engine's tuning of our
// kernels, the MPI layer's composed plan against the real FFTW MPI), does
// the same against the one deadline of the plan being made (PlanDeadline),
// which each of them reads where it times.
#pragma once

#include <cmath>
#include <string>

#include "core/problem.h"

namespace gpufftw {

// fftw(f)_set_timelimit as the program last set it; negative: no limit
// (FFTW_NO_TIMELIMIT, FFTW's default).
void set_time_limit(Precision precision, double seconds);
double time_limit(Precision precision);

// The seconds one plan may still spend, counted from its making (the API
// call): under no limit, always some left.
class Deadline {
 public:
  explicit Deadline(double limit_s);
  // A plan's of that precision made now: the program's limit counted from
  // now, or what the plan being made on this thread leaves (a serial plan
  // inside an MPI plan), whichever ends first.
  static Deadline of(Precision precision);

  bool bounded() const { return limit_s_ >= 0; }
  double spent() const;
  // Seconds left, at most the limit; HUGE_VAL where unbounded, 0 once passed.
  double left() const;
  bool passed() const { return bounded() && left() <= 0; }
  // The limit to hand a real FFTW planner made now (fftw_set_timelimit's
  // form): what is left, negative where there is no limit.
  double fftw_limit() const { return in_fftw_form(left()); }
  // Seconds left as left() gives them (HUGE_VAL: unbounded) in
  // fftw_set_timelimit's form: negative where unbounded.
  static double in_fftw_form(double left) { return left < HUGE_VAL ? left : -1; }
  // How long a timing about to start may take, for the line said before
  // it: "7.5 s, what the program's time limit leaves", else `unbounded`.
  std::string bound_text(const std::string &unbounded) const;

 private:
  friend class OutsideThePlan;
  double limit_s_;
  double start_;
};

// The deadline of the plan being made on this thread, for as long as this
// lives: the one every timing of that plan's making keeps to, however deep
// it is taken, as FFTW's planner keeps one limit for all its solvers.
// Nested (a plan made while another is), the inner one is current until it
// ends and the outer one then again.
class PlanDeadline {
 public:
  explicit PlanDeadline(const Deadline &deadline);
  ~PlanDeadline();
  PlanDeadline(const PlanDeadline &) = delete;
  PlanDeadline &operator=(const PlanDeadline &) = delete;

  const Deadline &deadline() const { return deadline_; }

 private:
  friend class OutsideThePlan;
  Deadline deadline_;  // its start moves only past work outside the plan (OutsideThePlan)
  PlanDeadline *outer_;
};

// Work that a plan may start but that is not the plan's own: the cost
// model's calibration, done once per machine and kept for every later
// plan, and the process's start on the GPU (its contexts, cuFFT loaded),
// done once per process and kept likewise. While this lives no plan's
// deadline is current on this thread, so what it times keeps to none
// (what it keeps must not depend on the limit of the program that
// happened to start it), and the time it takes is not counted against the
// plans being made: the plan that started it keeps the whole of its limit
// for its own choice, the real FFTW's planner included, as it would on a
// machine already calibrated.
class OutsideThePlan {
 public:
  OutsideThePlan();
  ~OutsideThePlan();
  OutsideThePlan(const OutsideThePlan &) = delete;
  OutsideThePlan &operator=(const OutsideThePlan &) = delete;

 private:
  PlanDeadline *plans_;
  double start_;
};

// The deadline of the plan being made on this thread (the innermost
// PlanDeadline's); unbounded where no plan is being made.
const Deadline &plan_deadline();

}  // namespace gpufftw
