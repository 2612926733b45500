// The one planner every plan entry point funnels into.
#pragma once

#include "gpufftw/gpufftw.h"
#include "shim/plan.h"

namespace gpufftw {

// A Plan for the problem, or nullptr where FFTW would give a NULL plan.
Plan *make_plan(const Problem &problem);

void set_mode(gpufftw_mode mode);
gpufftw_mode mode();

}  // namespace gpufftw
