// The comparison mode (GPUFFTW_COMPARE=1): an execute that is sampled is
// also computed by the real FFTW in higher precision (double for f32
// plans, long double for f64) on a copy of its input, and by the real FFTW
// in the plan's own precision for context; the errors of both are recorded
// per plan. The program gets gpufftw's result, unchanged.
//
//   GPUFFTW_COMPARE_EVERY=N   compare one execute in N of each plan (1)
//   GPUFFTW_COMPARE_FILE=F    also write one JSON line per plan to F at exit
//   GPUFFTW_COMPARE_HTML=F    also write the comparison as a page to F at
//                             exit (shim/compare_html.h)
//   GPUFFTW_COMPARE_PERTURB=1 test hook: add 1 to the first output element of
//                             every compared execute, which must be flagged
//
// Tolerance: relative L2 error <= c * eps * sqrt(log2 N), c = 5, eps of the
// plan's precision, N the transform size: the bound the test sweep holds
// the real FFTW and gpufftw to. Plans computed in half precision
// (GPUFFTW_PRECISION=fp16) get half's: c = 0.6, eps = 2^-10 (2e-3 at
// N = 4096), marked [fp16] in the table and "half":true in the file.
#pragma once

#include <cstdint>
#include <cstdio>

#include "core/plan.h"

namespace gpufftw {

bool compare_enabled();

// Runs plan->execute(arrays), comparing it when this execute is sampled;
// the nanoseconds of the plan's own execute, the comparison's work left out.
uint64_t execute_compared(Plan *plan, const Arrays &arrays);

void write_compare_table(FILE *out);

}  // namespace gpufftw
