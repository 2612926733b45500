// What tuning our own kernels against cuFFT found for one problem, and the
// store that keeps it between processes: the engine tunes and reads it
// (engine/engine.h: set_kernel_pick_store), the dispatch store keeps it
// (dispatch/store.h). Plain C++, in builds without CUDA too.
#pragma once

#include <functional>
#include <string>

namespace gpufftw {

struct KernelPick {
  std::string variant;            // kernels::Variant::name() of the fastest, or "cufft"
  double own_s = 0, cufft_s = 0;  // one execute of our fastest and of cuFFT, measured
};

struct KernelPickStore {
  std::function<bool(const std::string &key, KernelPick *pick)> recall;
  std::function<void(const std::string &key, const KernelPick &pick)> remember;
};

}  // namespace gpufftw
