// GPUFFTW_PRECISION and gpufftw_set_precision (issue 8): whether the
// single-precision c2c plans made from now on compute in half precision on
// the GPU, and what each plan got.
#pragma once

#include <string>

#include "gpufftw/gpufftw.h"
#include "shim/plan.h"

namespace gpufftw {

void set_precision(gpufftw_precision precision);
gpufftw_precision precision_setting();

// The setting is fp16 and the problem single-precision c2c: the GPU plan
// asks the engine for half precision.
bool half_wanted(const Problem &p);

// Whether the plan computes in half precision (the engine took it).
bool computes_in_half(const Plan &plan);

// What the plan's why adds under fp16: half precision and on what, or
// why not; "" under fp32 or for no plan.
std::string precision_note(const Problem &p, const Plan *plan);

}  // namespace gpufftw
