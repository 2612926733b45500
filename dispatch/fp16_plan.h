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
// (Spread::Set) the ways that spread are offered (fp16_ways.h's OverGpus:
// f32, and the ways in half on a batch), priced with the set's gain; the
// engine's placement (Spread::Auto) prices them so where the set's split
// takes the problem. The plan's why gets the choice's account
// (gpu_plan_fp16_note).
std::unique_ptr<Plan> fp16_gpu_plan(const Problem &p, Spread spread, std::string *why);

// The price auto mode weighs against the CPU's: the single-precision
// table's price of the problem (the set's for Spread::Set; none where it
// has no cell as large) times the model's cheapest way there over its
// single-precision way, so that the table's fixed costs stay in it.
// Asked before the process started CUDA, it starts none: the device's
// passes are then left out of the model's prices.
std::optional<double> fp16_price(const Problem &p, bool pinned, Spread spread, const GpuRates &rates);

}  // namespace gpufftw
