// The engine's solvers as the GPU's ways (candidates.h): where the engine
// offers several for a problem at a placement (GpuSide::offers), the GPU's
// way there in the problem's own precision becomes one per solver, named
// so and priced at the way's price times the solver's seconds over the
// cheapest offer's, as fp16's ways are priced relative to f32
// (fp16_candidates.h): the model's table keeps its fixed costs, the
// engine's bytes order its solvers. gpu_way_plan chooses among them as
// among the fp16 ways, and the plan is made with the chosen solver first.
#pragma once

#include <string>
#include <vector>

#include "dispatch/candidates.h"

namespace gpufftw {

// Whether the program asks for every plan to be timed (FFTW_PATIENT and
// up), a fallback solver (SolverOffer::fallback) among them.
bool asks_every_plan(const Problem &p);

// `ways` (the GPU's at one placement) with each that applies, is in the
// problem's own precision (Fp16Way::Single) and names no solver yet
// replaced by one per solver the engine offers there, where it offers
// several; unpriced, a solver's way is priced at its own seconds (the ways
// are then weighed against each other only). A fallback solver is a way
// only where asks_every_plan(): elsewhere the engine makes it where the
// others make no job, as without a choice. Where the engine offers one or
// none, the way stays as it is, its solver the engine's choice.
std::vector<Candidate> solver_ways(const Planner &planner, const Problem &p, const std::vector<Candidate> &ways);

// Whether a way of the list names its solver.
bool has_solver_ways(const std::vector<Candidate> &ways);

// A GPU way for the why: its fp16 way's name ("cuFFT fp16"), or its
// solver's ("cuFFT"), beside ways in half (`half`) with the precision
// ("f32 (out of core)").
std::string way_label(const Candidate &c, bool half);

// A GPU way as the store keeps it (fp16_ways.h's way_key): the fp16 way's
// tag, and after a colon its solver's name, spaces as underscores
// ("fp32:out_of_core").
std::string way_variant(const Candidate &c);

}  // namespace gpufftw
