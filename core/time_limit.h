// The program's bound on planning time, fftw(f)_set_timelimit, and the
// deadline one plan keeps to. FFTW's own planner stops timing once the
// limit has passed and keeps the best plan found; gpufftw's planner, at
// every level (dispatch's CPU-against-GPU timing, the MPI layer's composed
// plan against the real FFTW MPI), does the same against one deadline.
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
  static Deadline of(Precision precision) { return Deadline(time_limit(precision)); }

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
  double limit_s_;
  double start_;
};

}  // namespace gpufftw
