// The plan of a problem GPUFFTW_PRECISION=fp16 asks for (half_wanted):
// the ways of fp16_ways.h priced with this machine's rates and, under
// FFTW_MEASURE, timed, the choice kept in the dispatch store. CUDA build
// only.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "core/plan.h"
#include "dispatch/cost_model.h"
#include "core/where.h"

namespace gpufftw {

// nullptr, with why, where no way made a plan. Over the device set
// (Spread::Set) only single precision spreads, so only it is offered.
// The plan's why gets the choice's account (gpu_plan_fp16_note).
std::unique_ptr<Plan> fp16_gpu_plan(const Problem &p, Spread spread, std::string *why);

// The price auto mode weighs against the CPU's: the single-precision
// table's price of the problem times the model's cheapest way over its
// single-precision way, so that the table's fixed costs stay in it.
// Asked before the process started CUDA, it starts none: the device's
// passes are then left out of the model's prices.
double fp16_price(const Problem &p, bool pinned, const GpuRates &rates);

}  // namespace gpufftw
