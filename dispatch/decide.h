// The one decision over a problem's ways (candidates.h), FFTW's planner's:
// where the ways of one side alone apply, that side runs unweighed; under
// FFTW_ESTIMATE the cheapest way; measuring, the model's sure verdict
// untimed, else the cheapest of each side timed (measure.h) and the winner
// kept in the store under `key`. The why names the winner and the prices.
#pragma once

#include <string>
#include <vector>

#include "core/time_limit.h"
#include "dispatch/candidates.h"

namespace gpufftw {

// `list` priced wherever both sides apply; `deadline` started with the
// plan call (fftw_set_timelimit).
Dispatched decide(const Planner &planner, const Problem &p, const std::vector<Candidate> &list, const std::string &key,
                  const Deadline &deadline);

}  // namespace gpufftw
