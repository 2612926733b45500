// The ways one problem can run, in the shape of FFTW's solvers: each
// answers whether it applies (a typed reason where not) and, once priced,
// what the cost model says it costs. The real FFTW at each thread count
// that can win (thread_rules.h), and the GPU: the device set's split where
// the model has its data, and then one GPU alone beside it; elsewhere the
// GPU as the engine places it. Under GPUFFTW_PRECISION=fp16, each of the
// GPU's placements is a way per fp16 way (fp16_candidates.h); where the
// engine offers several solvers for the problem at a placement, a way per
// solver (solver_ways.h).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/memory_kind.h"
#include "dispatch/fp16_ways.h"
#include "dispatch/planner.h"

namespace gpufftw {

// Why a way does not apply to the problem.
enum class Unfit {
  Fits,
  // The real FFTW: arrays in device memory, which it would read from the
  // host and crash on.
  DeviceArrays,
  // The real FFTW: arrays in managed memory run on the GPU where it takes
  // them (the real FFTW runs them only where it does not).
  ManagedArrays,
  // The GPU, and threads beyond one: at most kTinyPoints, neither pays.
  Tiny,
  // The GPU: none can be used (the GPU side's words).
  NoGpu,
  // The GPU: its rates could not be calibrated, so nothing prices it.
  NoRates,
  // The GPU: the model has no data for any of its ways.
  NotPriced,
  // The real FFTW under GPUFFTW_MODE=gpu.
  Mode,
  // The GPU in one fp16 way: the way does not take the problem (its
  // sizes, its kind, or one transform over the set).
  NotInHalf,
  // The GPU in one fp16 way in half: this process could not measure the
  // rates the ways in half are priced by.
  NoHalfRates,
  // The GPU in one fp16 way: GPUFFTW_FP16_WAY forces another that takes
  // the problem.
  NotForced,
};

// Whether the reason rules out one fp16 way of the GPU rather than a side:
// the planner's why names it in the fp16 account, not as a side's reason.
bool rules_out_a_way(Unfit unfit);

struct Candidate {
  bool gpu = false;
  Spread spread = Spread::Auto;  // the GPU's
  // The GPU's: how a problem half_wanted() asks for computes; Single for
  // every other problem.
  Fp16Way way = Fp16Way::Single;
  // The GPU's: the engine's solver its plan is made with first
  // (solver_ways.h); "" where the engine offers one or none, or the way is
  // in half (the fp16 solver's): the engine's cheapest.
  std::string solver;
  int threads = 0;              // the real FFTW's
  std::optional<double> price;  // the model's seconds, once priced
  Unfit unfit = Unfit::Fits;
  std::string why_not;  // where it does not apply

  bool applies() const { return unfit == Unfit::Fits; }

  static Candidate cpu_at(int threads, std::optional<double> price = std::nullopt);
  static Candidate gpu_at(Spread spread, std::optional<double> price = std::nullopt, Fp16Way way = Fp16Way::Single);
};

// Every way of the problem, the program's `threads` given, each asked
// whether it applies by what needs neither the store nor the model (the
// arrays' memory, `in` and `out`; the size; whether a GPU can be used),
// unpriced: the real FFTW at `threads` and, where that is more than one,
// at one thread; then the GPU as the engine places it.
std::vector<Candidate> ways(const Planner &planner, const Problem &p, int threads, Memory in, Memory out);

// The ways of one side (`gpu`) that still apply, ruled out for `unfit`.
void rule_out(std::vector<Candidate> *list, bool gpu, Unfit unfit, const std::string &why_not);

// Whether a way of that side (`gpu`) applies. Only where both sides do is
// there a choice for the store, the model or timing to make.
bool side_applies(const std::vector<Candidate> &list, bool gpu);

// The real FFTW's ways that apply, priced from the store's tables,
// calibrated here at first need (the one-thread table only where the
// program asked for more).
void price_cpu(const Planner &planner, const Problem &p, std::vector<Candidate> *list);

// The GPU's way replaced by those the GPU side prices from `rates`: where
// the model prices the set, one GPU is a way of its own beside it, so that
// a plan the set runs slower stays on one GPU; elsewhere the engine places
// the plan. Ruled out (NotPriced) where the model prices none. A problem
// half_wanted() asks for has a way per fp16 way at each placement
// (add_half_ways).
void price_gpu(const Planner &planner, const Problem &p, bool pinned, const GpuRates &rates,
               std::vector<Candidate> *list);

// The GPU's cheapest way that applies, or none.
std::optional<Candidate> cheapest_gpu(const std::vector<Candidate> &list);

// The GPU's ways at `spread` (applying or not); where the list has none
// there, those of its other placement, taken at `spread` (FFTW_MEASURE
// times the split against one GPU whatever the model priced).
std::vector<Candidate> gpu_ways_at(const std::vector<Candidate> &list, Spread spread);

// For a plan's why: "; the GPUs' split priced X, one GPU Y" where the list
// prices both (each placement's cheapest way), else "".
std::string placement_prices(const std::vector<Candidate> &list);

}  // namespace gpufftw
