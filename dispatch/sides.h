// Where a choice between gpufftw's ways and the real FFTW's starts, one
// function for every level that weighs the two: the serial planner
// (policy.cc: the GPU against the real FFTW) and the MPI layer
// (mpi/composed/entry.cc: the composed plan against the real FFTW MPI).
// As in FFTW's planner: a side none of whose ways applies is not weighed,
// the other's plan is made unweighed; where both apply, the wisdom first
// (the store's record of an earlier weighing), then FFTW_WISDOM_ONLY,
// which makes no plan its wisdom does not hold; only then the prices and
// the timing (decide.h, measure_steps.h). Inline and pure (no plan, no
// store): the MPI layer, a library of its own, reaches it, and tests run
// every case with stand-ins.
#pragma once

#include <functional>

namespace gpufftw {

enum class SidesStart {
  Theirs,       // gpufftw's side does not apply: the real FFTW's plan, unweighed
  Ours,         // the real FFTW's side does not apply: gpufftw's plan, unweighed
  Recalled,     // both apply, and the store holds the choice of an earlier weighing
  TheirWisdom,  // both apply under FFTW_WISDOM_ONLY, no choice stored: the real FFTW's wisdom decides
  Weigh,        // both apply, nothing recalled: priced, then the cheapest kept or the two timed
};

// `ours` and `theirs`: whether a way of each side applies. `recall` is
// asked only where both do, so that a plan nothing weighs reads no store
// (and the MPI layer's recall, collective, is made by every rank alike:
// the sides' applying is drawn from the ranks' vote).
inline SidesStart sides_start(bool ours, bool theirs, bool wisdom_only, const std::function<bool()> &recall) {
  if (!ours) return SidesStart::Theirs;
  if (!theirs) return SidesStart::Ours;
  if (recall()) return SidesStart::Recalled;
  return wisdom_only ? SidesStart::TheirWisdom : SidesStart::Weigh;
}

}  // namespace gpufftw
