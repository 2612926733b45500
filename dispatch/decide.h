// The one decision over a problem's ways (candidates.h), FFTW's planner's:
// where the ways of one side alone apply, that side runs unweighed; under
// FFTW_ESTIMATE the cheapest way; measuring, the model's sure verdict
// untimed, else the cheapest of each side timed (measure.h) and the winner
// kept in the store under `key`. The why names the winner and the prices,
// and of an fp16 problem's GPU plan, its way (fp16_candidates.h).
#pragma once

#include <string>
#include <vector>

#include "dispatch/candidates.h"

namespace gpufftw {

// `list` priced wherever both sides apply; every timing within the
// plan's deadline (plan_deadline(), started with the plan call).
Dispatched decide(const Planner &planner, const Problem &p, const std::vector<Candidate> &list, const std::string &key);

// The GPU's plan at `spread` among the list's ways there (gpu_way_plan),
// else where the engine places it, saying that the placement was not
// taken, else the real FFTW's: where the GPU alone applies, or a choice of
// the GPU was recalled.
Dispatched on_gpu_ways(const Planner &planner, const Problem &p, const std::vector<Candidate> &list, Spread spread,
                       const std::string &why);

}  // namespace gpufftw
