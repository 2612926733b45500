// The GPU's plan at one placement, among its ways there (candidates.h's
// gpu_ways_at): one per fp16 way for a problem GPUFFTW_PRECISION=fp16 asks
// for (fp16_candidates.h), and one per solver the engine offers where it
// offers several (solver_ways.h), else one way, chosen as the planner
// chooses: what FFTW_MEASURE stored, else the readings, else the model's
// cheapest.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "dispatch/candidates.h"

namespace gpufftw {

// Whether a plan of the problem is measured: FFTW_MEASURE and up on the
// plan's arrays (FFTW_WISDOM_ONLY measures nothing).
bool measures(const Problem &p);

struct GpuWay {
  std::unique_ptr<Plan> plan;  // nullptr: no way made one
  Fp16Way way = Fp16Way::Single;
  std::string solver;  // the engine's, where the ways name theirs
  double read_s = -1;  // its reading, where the ways were read
  // The fp16 account (fp16_candidates.h) where the ways are fp16 ways,
  // else "; solver: <made>, <how>" where they are the engine's solvers;
  // without a plan, why not.
  std::string why;
};

// The way FFTW_MEASURE stored for the problem at that placement (way_key)
// where it applies and makes a plan; else, `measuring` with several ways
// that apply, each priced within kWayTimedWithin of the cheapest (the
// cheapest in the problem's own precision always, so that a model off by
// more never leaves a plan in half slower than single precision) made and
// read in turn (read_in_turn), the fastest kept and stored; else the
// cheapest that makes a plan, as also
// once the plan's deadline (plan_deadline()) has passed, nothing read or
// stored, saying so. Where GPUFFTW_FP16_WAY's way makes none, the choice
// as without it, saying so.
// `ways`: the GPU's ways at one placement, each in the problem's own
// precision one per solver the engine offers (solver_ways) before the
// choice.
GpuWay gpu_way_plan(const Planner &planner, const Problem &p, const std::vector<Candidate> &ways, bool measuring);

// The GPU's plan at the placement the model chose, `*spread`, its ways as
// gpu_way_plan chooses them: where that is the split and the engine cannot
// make it after all, one GPU, `*spread` then One and `not_split` why the
// split made no plan.
GpuWay model_placed_plan(const Planner &planner, const Problem &p, const std::vector<Candidate> &list, Spread *spread,
                         bool measuring, std::string *not_split);

}  // namespace gpufftw
