// Where each plan runs: on the real FFTW or on the GPU, by the mode, by the
// arrays' memory, by a choice measured earlier, by the cost model
// (FFTW_ESTIMATE), or by timing both (FFTW_MEASURE and up, where the model
// is not sure).
#pragma once

#include <memory>
#include <string>

#include "core/plan.h"
#include "dispatch/store.h"
#include "gpufftw/gpufftw.h"

namespace gpufftw {

struct Dispatched {
  std::unique_ptr<Plan> plan;  // nullptr: FFTW would give a NULL plan too
  std::string why;             // where it runs and why, for the log and the report
};

Dispatched dispatch(const Problem &problem, gpufftw_mode mode);

// The key a measured choice is remembered by: the problem's whole layout,
// the thread count and whether the host arrays are pinned. No spaces.
std::string choice_key(const Problem &problem, int threads, bool pinned);

// A choice measured outside dispatch (libgpufftw_mpi's, between its
// composed plan, the `gpu` side, and the real FFTW MPI), kept in the same
// store under a key of its own making (no spaces).
bool recall_measured(const std::string &key, Choice *choice);
void remember_measured(const std::string &key, const Choice &choice);

// The model's price, in seconds, of the real FFTW computing `problem` at
// `threads`, its tables calibrated at first need as a plan's choice would
// calibrate them; negative where gpufftw has no model (built without
// CUDA, it keeps no store).
double cpu_model_seconds(const Problem &problem, int threads);

// fftw(f)_forget_wisdom and fftw(f)_cleanup: the measured choices of that
// precision are forgotten too.
void forget_choices(Precision precision);

// What a plan's why adds for a GPU plan: "; on GPU 0", or the GPUs it
// spreads over, or why it does not where the device set has several; ""
// for a CPU plan or none.
std::string placement_note(const Plan *plan);

// GPUFFTW_PRECISION and gpufftw_set_precision: whether the single-precision
// c2c plans made from now on compute in half precision on the GPU, and what
// each plan got.
void set_precision(gpufftw_precision precision);
gpufftw_precision precision_setting();

// The setting is fp16 and the problem single-precision c2c: the GPU plan
// asks the engine for half precision.
bool half_wanted(const Problem &p);

// Whether the plan computes in half precision (the engine took it).
bool computes_in_half(const Plan &plan);

// What the plan's why adds under fp16: half precision and on what, or
// why not; "" under fp32 or for no plan.
std::string precision_note(const Problem &p, const Plan *plan);

}  // namespace gpufftw
