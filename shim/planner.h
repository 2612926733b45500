// The one planner every plan entry point funnels into.
#pragma once

#include <mutex>

#include "gpufftw/gpufftw.h"
#include "shim/plan.h"

namespace gpufftw {

// A Plan for the problem, or nullptr where FFTW would give a NULL plan.
Plan *make_plan(const Problem &problem);

// Held by every plan entry (make_plan) and every wisdom call of the API:
// calibrating inside a plan saves and restores the real FFTW's wisdom, and
// must not run beside another thread's planning or wisdom call, even where
// the program made the real planner thread-safe. Recursive: a user's
// wisdom callback may call into the API.
std::recursive_mutex &planner_mutex();
#define GPUFFTW_PLANNER_LOCKED \
  const std::lock_guard<std::recursive_mutex> planner_guard(::gpufftw::planner_mutex())

void set_mode(gpufftw_mode mode);
gpufftw_mode mode();

}  // namespace gpufftw
