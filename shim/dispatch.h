// Where each plan runs: on the real FFTW or on the GPU, by the mode, by the
// arrays' memory, by a choice measured earlier, by the cost model
// (FFTW_ESTIMATE), or by timing both (FFTW_MEASURE and up, where the model
// is not sure).
#pragma once

#include <memory>
#include <string>

#include "gpufftw/gpufftw.h"
#include "shim/plan.h"

namespace gpufftw {

struct Dispatched {
  std::unique_ptr<Plan> plan;  // nullptr: FFTW would give a NULL plan too
  std::string why;             // where it runs and why, for the log and the report
};

Dispatched dispatch(const Problem &problem, gpufftw_mode mode);

// The key a measured choice is remembered by: the problem's whole layout,
// the thread count and whether the host arrays are pinned. No spaces.
std::string choice_key(const Problem &problem, int threads, bool pinned);

// fftw(f)_forget_wisdom and fftw(f)_cleanup: the measured choices of that
// precision are forgotten too.
void forget_choices(Precision precision);

}  // namespace gpufftw
