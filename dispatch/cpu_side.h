// What dispatch asks of the real FFTW: its plan of a problem at a thread
// count, and the thread count the program asked for. fallback/ answers in
// the library (cpu_side_fftw.cc); the tests of the policy give one whose
// answers they set.
#pragma once

#include <memory>

#include "core/plan.h"

namespace gpufftw {

class CpuSide {
 public:
  virtual ~CpuSide() = default;
  // The real FFTW's plan with at most `threads` threads (0: as many as the
  // program asked for), its planner kept to `time_limit` seconds (negative:
  // none; the program's own fftw_set_timelimit, or what gpufftw's timing
  // of the same plan call left of it), or nullptr where it gives none.
  virtual std::unique_ptr<Plan> plan(const Problem &problem, int threads, double time_limit) = 0;
  // fftw(f)_plan_with_nthreads as the program last set it.
  virtual int threads(Precision precision) = 0;
};

// The real FFTW's own side (fallback/cpu_plan.h).
CpuSide &fftw_cpu_side();

}  // namespace gpufftw
