// GPUFFTW_PRECISION=fp16's ways (fp16_ways.h) as candidates of dispatch's
// planner (candidates.h): at each placement of the GPU, one per way, each
// that does not take the problem ruled out with its words, GPUFFTW_FP16_WAY
// a restriction on which apply, as the mode is on the sides; and the words
// a plan's why gives of the way it was made.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "dispatch/candidates.h"

namespace gpufftw {

// The GPU's ways at `spread` of a problem half_wanted() asks for, added to
// `list`, on arrays `at` (over the set as over_gpus sees it from `rates`):
// each way that does not take the problem ruled out (NotInHalf, its
// words); the ways in half where the GPU side has no rates to price them
// by (NoHalfRates); where GPUFFTW_FP16_WAY forces a way that then applies,
// every other (NotForced); the others priced at `table` times the way's
// model price over f32's, so that the table's fixed costs stay in it, or,
// without a table (the GPU alone), at the model's own seconds. A forced
// way with nothing to weigh it against (no table) is not priced, and no
// rates are asked for. `rates`: none where the GPU was not calibrated
// (`no_rates` says why).
void add_half_ways(const Planner &planner, const Problem &p, ArraysAt at, Spread spread, const GpuRates *rates,
                   std::optional<double> table, std::vector<Candidate> *list,
                   const std::string &no_rates = "the GPU could not be calibrated (the log says why)");

// Where the GPU alone applies (GPUFFTW_MODE=gpu, device arrays, a choice
// of the GPU recalled): the GPU's ways of a problem half_wanted() asks for
// replace its candidates, at `spread`, priced by the model's own seconds
// (they are weighed against each other only), the GPU's table calibrated
// at first need unless a forced way needs none. Other problems keep theirs.
void half_ways_alone(const Planner &planner, const Problem &p, Spread spread, std::vector<Candidate> *list);

// Whether the GPU's ways are fp16 ways: the plan's why then gives the
// fp16 account.
bool has_half_ways(const std::vector<Candidate> &ways);

// "ours (tensor cores) 2 ms, cuFFT fp16 1 ms, f32 3 ms": the model's price
// of each way that applies and is priced, by its label (solver_ways.h's
// way_label: "cuFFT 1 ms, out of core 2 ms" for the engine's solvers).
std::string way_prices(const std::vector<Candidate> &ways);

// "; fp16: <way made>, <how>", then why GPUFFTW_FP16_WAY's way was not
// taken, and each way not offered at the placement (`ways`: the GPU's
// ways there), with its words. `made`: the way's label.
std::string fp16_account(const Planner &planner, const std::vector<Candidate> &ways, const std::string &made,
                         const std::string &how);

}  // namespace gpufftw
