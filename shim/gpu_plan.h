// A Plan computed by the GPU engine, for the problems whose layout cuFFT's
// advanced interface can state.
#pragma once

#include <memory>
#include <string>

#include "shim/plan.h"

namespace gpufftw {

// nullptr, with the reason in `why`, where the GPU cannot take the problem.
std::unique_ptr<Plan> make_gpu_plan(const Problem &problem, std::string *why);

}  // namespace gpufftw
