// Our own kernels (engine/kernels) or cuFFT for a batched c2c on dense
// arrays (1-D, four-step 1-D, 2-D, 3-D), by measurement (Dotsenko et al.
// 2011: kernel variants, pruned, the best chosen by timing on the
// device): once per problem and machine,
// every variant of the length and cuFFT's plan are timed on scratch
// buffers of the problem's size, and the winner is kept (core/kernel_pick.h).
// cuFFT stays wherever it was not beaten.
#pragma once

#include <cuda_runtime_api.h>

#include <memory>
#include <string>

#include "engine/cufft/plan_cache.h"
#include "engine/engine.h"
#include "engine/kernels/transform_plan.h"
#include "engine/solver/solver.h"

namespace gpufftw::engine {

// c2c of a shape kernels::TransformPlan takes, each side dense (row-major,
// the loop's distance the transform's size, at most one loop, interleaved).
bool own_kernel_suits(const Geometry &g);

// The key of g's pick: "c2c.f32.n1009.b16384.oop", "c2c.f32.n1024x768.b1.ip".
std::string kernel_pick_key(const Geometry &g);

// Whether cuFFT stays for g without timing anything, and why: NotAsked
// where no pick is remembered and g does not ask for tuning or the plan's
// deadline (plan_deadline()) has passed, Slower where the pick remembered
// is cuFFT. The planner then makes no job of our kernels to find that out.
bool own_kernel_declines(const Geometry &g, Reason *why);

// Our kernel's time over cuFFT's on g, as tuning measured it (a pick
// recalled); 1 where nothing was measured.
double own_kernel_time_ratio(const Geometry &g);

// Our plan for g where it was measured faster than cuFFT (recalled, or
// timed now on `stream` within the plan's deadline: tuning_within.h),
// else nullptr: cuFFT runs. `cufft` is cuFFT's
// plan of `cufft_batch` of g's transforms (the whole batch, or one chunk
// of it: its time is scaled to the batch). `said` gets what runs and why
// (for FftJob::path()), or why cuFFT stays, its code Slower where cuFFT
// was measured faster, NoJob where tuning or planning ours failed.
std::unique_ptr<kernels::TransformPlan> pick_own_kernel(const Geometry &g, const Step &cufft, long long cufft_batch,
                                                       cudaStream_t stream, Reason *said);

}  // namespace gpufftw::engine
