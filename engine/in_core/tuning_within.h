// Our kernels' tuning (own_kernel.h) within the deadline of the plan being
// made (core/time_limit.h), as FFTW's planner keeps to the program's time
// limit: it checks the limit between solvers and, once it has passed,
// keeps the best it found. No CUDA here, so that the rule is tested on the
// CPU.
#pragma once

#include "core/time_limit.h"

namespace gpufftw::engine {

class TuningWithin {
 public:
  explicit TuningWithin(const Deadline &deadline) : deadline_(deadline) {}

  // Whether tuning starts: not where the deadline has already passed;
  // cuFFT then stays, untimed.
  bool starts() const { return !deadline_.passed(); }
  // Whether the next variant is timed: none once the deadline has passed,
  // and those timed so far stand (cuFFT where none beat it).
  bool goes_on() {
    if (deadline_.passed()) cut_short_ = true;
    return !cut_short_;
  }
  // Whether the pick is remembered: not one the deadline cut short, so
  // that a later plan with time tunes in full.
  bool remembered() const { return !cut_short_; }

 private:
  const Deadline deadline_;
  bool cut_short_ = false;
};

}  // namespace gpufftw::engine
