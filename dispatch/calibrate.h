// Measuring this machine for the cost model. Each takes a fraction of a
// second, so the dispatch store keeps the results per machine and thread
// count, and they run once.
#pragma once

#include <string>

#include "dispatch/cost_model.h"

namespace gpufftw {

// The real FFTW with FFTW_ESTIMATE plans at its current thread count for
// that precision. Its wisdom is left as it was: the measuring plans add
// none that the program could export.
CpuRates calibrate_cpu(Precision precision, int threads);

// How many times faster than `stored` (its precision and threads) a few of
// its cells run now (store.h): a few, so that checking a table costs a
// small part of reading it again.
double check_cpu(const CpuRates &stored);

#if GPUFFTW_HAVE_CUDA
// The engine end to end on pinned and pageable arrays, and the rates it
// prices its solvers by (engine.h's measure_rates); false (with why)
// where a job cannot run or a rate cannot be measured.
bool calibrate_gpu(GpuRates *rates, std::string *why);

// How many times faster than `stored` a few of its cells, pinned and
// pageable, run now (store.h), a small part of a calibration's time; 0
// where this process has not started CUDA.
double check_gpu(const GpuRates &stored);
#endif

}  // namespace gpufftw
