// A Plan computed by the GPU engine, for the problems whose layout cuFFT's
// advanced interface can state.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/plan.h"
#include "dispatch/fp16_ways.h"
#include "dispatch/gpu_side.h"

namespace gpufftw {

// True once a sticky CUDA error lost the GPU engine (engine::gpu_lost):
// logged once, by the first to ask; `why` then says so for a plan's why.
bool gpu_engine_lost(std::string *why);

// Whether the problem's input or output is device memory, which the real
// FFTW cannot reach (it would read it from the host and crash).
bool arrays_on_device(const Problem &problem);

// nullptr, with the reason in `why`, where the GPU cannot take the problem
// spread so (core/where.h; the engine's Geometry::spread), computed `way`
// (fp16_ways.h; a problem half_wanted() does not ask for computes in
// single precision whatever the way), the engine's `solver` made first
// ("": its cheapest; Geometry::solver).
std::unique_ptr<Plan> make_gpu_plan(const Problem &problem, Spread spread, Fp16Way way, const std::string &solver,
                                    std::string *why);

// The engine's solvers that take the problem spread so, in single
// precision, priced (engine::offers).
std::vector<SolverOffer> gpu_offers(const Problem &problem, Spread spread);

// What runs a plan make_gpu_plan made (where() is Gpu): the engine's
// path, the solver that made its job, and whether it computes in half
// precision.
std::string gpu_plan_path(const Plan &gpu_plan);
std::string gpu_plan_solver(const Plan &gpu_plan);
bool gpu_plan_half(const Plan &gpu_plan);
// Which GPUs it runs on, and why those.
std::string gpu_plan_placement(const Plan &gpu_plan);

}  // namespace gpufftw
