// The ways one problem can run, each priced by the cost model: the real
// FFTW at each thread count that can win (thread_rules.h), and each GPU
// way the GPU side prices: the device set's split where the model has its
// data, and then one GPU alone beside it; elsewhere the GPU as the engine
// places it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "dispatch/planner.h"

namespace gpufftw {

struct Candidate {
  bool gpu = false;
  Spread spread = Spread::Auto;  // the GPU's
  int threads = 0;              // the real FFTW's
  double price = 0;             // the model's seconds
};

// The real FFTW at the program's `threads` and, where that is more than
// one, at one thread; then the GPU's ways priced from `rates` (none where
// `rates` is nullptr: a CPU choice recalled needs only the real FFTW's).
// The real FFTW's tables are calibrated here at first need (the store's),
// the one-thread table only where the program asked for more.
std::vector<Candidate> candidates(const Planner &planner, const Problem &p, int threads, bool pinned,
                                  const GpuRates *rates);

// The GPU's cheapest way, or none where the GPU side priced none.
std::optional<Candidate> cheapest_gpu(const std::vector<Candidate> &list);

// For a plan's why: "; the GPUs' split priced X, one GPU Y" where the list
// prices both, else "".
std::string placement_prices(const std::vector<Candidate> &list);

}  // namespace gpufftw
