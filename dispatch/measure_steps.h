// FFTW_MEASURE's steps against the real FFTW, once gpufftw's plan has been
// read: which of the real FFTW's plans is made and read, in which order,
// where the timing stops, which plan is kept there and whether the choice
// is stored. One function for both planners that weigh gpufftw against
// the real FFTW: the serial one (measure.cc: the GPU against the real
// FFTW) and the MPI layer's (mpi/composed/entry.cc: the composed plan
// against the real FFTW MPI, each step collective on every rank). The
// caller's hands make and read the plans and say what the deadline
// leaves; the steps are drawn from their answers alone, so every rank
// whose hands answer alike takes the same steps. Inline and pure (no plan,
// no store, no clock): the MPI layer, a library of its own, reaches it,
// and tests run it with stand-in readings.
#pragma once

#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>

#include "dispatch/cost_model.h"

namespace gpufftw {

// The caller's hands; every time, theirs and the steps', in one unit.
struct RealSideHands {
  // The real FFTW's FFTW_ESTIMATE plan made and read (cheap to make:
  // read first); nullopt where it gives none. `loses_at`: the reading past
  // which it loses by FFTW_MEASURE's cut (a reading may stop there).
  std::function<std::optional<double>(double loses_at)> estimated;
  // What the plan's deadline leaves (HUGE_VAL without one).
  std::function<double()> left;
  // Its plan with the program's flags made and read; nullopt where it
  // gives none.
  std::function<std::optional<double>()> measured;
};

// Where the steps ended.
enum class MeasureEnd {
  Untimed,      // the model's low price of the real FFTW: surely slower, or its one run past the limit
  Cut,          // its FFTW_ESTIMATE plan lost by FFTW_MEASURE's cut: its measured plan not made
  LimitPassed,  // the limit passed after its FFTW_ESTIMATE plan: its measured plan not made
  NoMeasured,   // it gave no measured plan
  Read,         // both its plans read
};

enum class Kept { Ours, Estimated, Measured };

struct MeasureSteps {
  MeasureEnd end = MeasureEnd::Read;
  std::optional<double> estimated_read, measured_read;  // the real FFTW's plans' readings, where read
  Kept kept = Kept::Ours;
  // Whether the choice is stored for later plans; else it is kept for
  // this plan alone.
  bool store = false;
};

// The steps, gpufftw's plan read at `ours`:
// 1. Where the caller prices the real FFTW low (`real_price`, never high,
//    the model's) above ours, and the model is sure it is slower (judge),
//    or its one run alone would pass what the deadline leaves, nothing of
//    it is made: ours is kept, the choice stored on the sure verdict
//    alone. A caller whose verdict was drawn from both sides' prices
//    before anything was read (the serial planner's decide) passes none.
// 2. Its FFTW_ESTIMATE plan made and read; where it reads past `loses_by`
//    times ours (FFTW_MEASURE's cut, estimate_loses_by), its measured plan
//    is taken to lose too and is not made: ours is kept, and stored.
// 3. Past the deadline after it, the faster of what was read (ties: ours),
//    not stored: a run with more time measures again.
// 4. Its measured plan made and read; none: ours is kept, not stored.
//    Else the fastest of the three readings (ties: ours, then the
//    measured plan), stored.
// A caller whose estimated plan, missing, should count as losing returns
// HUGE_VAL for it rather than nullopt; nullopt goes on to the measured
// plan. The serial planner reads both sides again where close (settle,
// doubt) and weighs its readings by rules of its own past step 4
// (measure.h); the MPI layer keeps step 4's choice.
inline MeasureSteps measure_steps(double ours, std::optional<double> real_price, double loses_by,
                                  const RealSideHands &hands) {
  MeasureSteps s;
  auto end = [&s](MeasureEnd e, Kept kept, bool store) {
    s.end = e;
    s.kept = kept;
    s.store = store;
    return s;
  };
  if (real_price && *real_price > 0 && *real_price > ours) {
    const Verdict model = judge(ours, *real_price);
    if (model.sure || *real_price > hands.left()) return end(MeasureEnd::Untimed, Kept::Ours, model.sure);
  }
  const double loses_at = loses_by * ours;
  s.estimated_read = hands.estimated(loses_at);
  if (s.estimated_read && *s.estimated_read > loses_at) return end(MeasureEnd::Cut, Kept::Ours, true);
  if (s.estimated_read && hands.left() <= 0)
    return end(MeasureEnd::LimitPassed, ours <= *s.estimated_read ? Kept::Ours : Kept::Estimated, false);
  s.measured_read = hands.measured();
  if (!s.measured_read) return end(MeasureEnd::NoMeasured, Kept::Ours, false);
  const double measured = *s.measured_read, estimated = s.estimated_read.value_or(HUGE_VAL);
  if (!(std::min(measured, estimated) < ours)) return end(MeasureEnd::Read, Kept::Ours, true);
  return end(MeasureEnd::Read, measured <= estimated ? Kept::Measured : Kept::Estimated, true);
}

}  // namespace gpufftw
