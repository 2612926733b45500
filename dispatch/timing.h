// The timing harness FFTW_MEASURE reads plans with.
#pragma once

#include <chrono>
#include <cmath>
#include <functional>
#include <vector>

#include "core/plan.h"

namespace gpufftw {

// Seconds of one execute of a plan on its own arrays, or the faster
// reading where one is over `enough` (time_execute's, or a test's).
using Reading = std::function<double(Plan *plan, double enough)>;

// Seconds of one execute of the plan on its own arrays (FFTW_MEASURE may
// overwrite them): after a warm-up, the median of samples until 5 were
// taken and 2 ms spent (fewer, just after planning, read small transforms
// several times slow); a single run where one takes over 50 ms; or, where
// the warm-up and the first sample are both over `enough` seconds, the
// faster (the other side is faster by then whatever the rest would say).
// One execute just after planning is no reading: the real FFTW's threads
// can run it many times slower than the plan then runs. Two are; a third
// would cost a big problem's FFTW_MEASURE a good part of what the real
// FFTW's own measuring takes (docs/dispatch-sweep.md, "FFTW_MEASURE").
double time_execute(Plan *plan, double enough = HUGE_VAL);

// Readings of plans (any may be nullptr, read as HUGE_VAL), each the
// least of three taken in turn: a reading just after planning runs small
// transforms several times slow (time_execute), and a slow spell falls on
// every plan alike instead of one.
std::vector<double> read_in_turn(const Reading &read, const std::vector<Plan *> &plans);

}  // namespace gpufftw
