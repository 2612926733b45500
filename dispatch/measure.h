// FFTW_MEASURE's procedure: the candidates the model cannot separate,
// timed on the plan's arrays, and the winner kept in the store.
#pragma once

#include <string>
#include <vector>

#include "dispatch/candidates.h"

namespace gpufftw {

// FFTW_MEASURE's choice between the GPU's candidate `gpu` and the real
// FFTW's at `cpu_threads` (and at one thread, where one_thread_may_win),
// by timing them on the plan's arrays, stored under `key`
// (docs/how-it-works.md, "FFTW_MEASURE's rules", has each rule in one
// table with the failure it prevents): the GPU first, then the steps
// against the real FFTW that the MPI layer takes too (measure_steps.h):
// its FFTW_ESTIMATE plan (cheap to make), and only where that does not
// lose (estimate_loses_by), its plan with the program's flags; close
// readings are read again in turn (settle), and a losing side read far
// above the model's price for it, or the real FFTW's measured plan read
// above its FFTW_ESTIMATE plan that beat the GPU, again (doubt); where the
// measured plan still loses, that estimated plan runs
// (estimated_stands_in).
// Within the plan's deadline (plan_deadline()): past it, the faster of
// what was read is kept, for this process only.
Dispatched measured(const Planner &planner, const Problem &p, const std::string &key,
                    const std::vector<Candidate> &list, int cpu_threads, const Verdict &model);

// The GPU's plan of a measuring plan. Where the device set's split takes
// the problem, the split and one GPU alone are both planned and read in
// turn, whatever the model priced, and the faster kept (ties: one GPU),
// its placement and way in `chosen` and both readings in `placed`: a split
// costs a thread start, an exchange or a second link's share of the host,
// which not every problem repays. Elsewhere the engine places it (Auto).
// At each placement, its way among the list's ways there (gpu_way_plan:
// an fp16 problem's ways read in turn). Where `read_s` is given, the kept
// plan's reading (read once where nothing was compared). Without a plan,
// `placed` says why not; with one, it ends with the fp16 account.
// Once the plan's deadline (plan_deadline()) has passed, as FFTW's planner
// then keeps what it has: no second plan is made to read against, the
// model's cheaper placement and way are made (a split the engine cannot
// make leaves one GPU), and `by_model`, where given, is set, for a choice
// nothing measured.
std::unique_ptr<Plan> placed_gpu_plan(const Planner &planner, const Problem &p, const std::vector<Candidate> &list,
                                      Candidate *chosen, double *read_s, std::string *placed, bool *by_model);

// The real FFTW's measured plans at the program's `threads` and at one,
// each timed on the plan's arrays: the faster, its thread count in
// `chosen`, and both readings added to `why`. A measuring plan leaves
// wisdom behind in the real FFTW; where the model sends a problem to the
// CPU, this keeps the faster count's, so that FFTW_WISDOM_ONLY finds it.
// Past the plan's deadline, the program's count unread (`timed` false: a
// choice for this process only).
Dispatched faster_of_threads(const Planner &planner, const Problem &p, int threads, const std::string &why,
                             int *chosen, bool *timed);

}  // namespace gpufftw
