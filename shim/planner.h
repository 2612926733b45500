// The one planner every plan entry point funnels into.
#pragma once

#include "core/plan.h"
#include "core/problem.h"
#include "fallback/cpu_plan.h"
#include "gpufftw/gpufftw.h"

namespace gpufftw {

// A Plan for the problem, or nullptr where FFTW would give a NULL plan.
Plan *make_plan(const Problem &problem);

void set_mode(gpufftw_mode mode);
gpufftw_mode mode();

}  // namespace gpufftw
