// A Plan computed by the real FFTW: it wraps one real plan of precision R.
#pragma once

#include <memory>

#include "shim/plan.h"

namespace gpufftw {

// A real FFTW plan for the problem (R: float, double, or long double for
// the comparison mode's reference), or nullptr where the real FFTW gives none
// (bad layout, FFTW_WISDOM_ONLY without wisdom) or is not there.
template <class R>
std::unique_ptr<Plan> make_cpu_plan(const Problem &problem);

}  // namespace gpufftw
