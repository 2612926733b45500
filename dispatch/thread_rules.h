// Which of the real FFTW's thread counts run a problem: the program's
// (fftw_plan_with_nthreads is a maximum) or one thread, where threads
// woken for a small transform cost more than it does.
#pragma once

#include <cstdint>
#include <vector>

#include "dispatch/candidates.h"

namespace gpufftw {

// Below this many points no GPU can win against the real FFTW on one
// thread: a launch and a synchronisation alone cost more than its whole
// transform, and neither do threads (waking them costs more than the
// transform too). Deciding so needs neither CUDA nor the model.
constexpr int64_t kTinyPoints = 4096;

// The model's pick of the real FFTW's candidates that apply: the
// program's thread count, or one thread where the model prices it
// kOneThreadBy faster (cost_model.h's pick_threads). Where they are not
// priced, the program's count; where none applies, a default Candidate.
Candidate cheapest_cpu(const std::vector<Candidate> &list);

// Whether one thread may run the problem faster than the program's count,
// by the model's prices (false where they are not priced): FFTW_MEASURE
// then times both.
bool one_thread_may_win(const std::vector<Candidate> &list);

}  // namespace gpufftw
