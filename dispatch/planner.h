// Dispatch's planner, in the shape of FFTW's: the ways a problem can run
// (candidates.h) each say whether they apply and are priced by the cost
// model, one decision takes the cheapest or has FFTW_MEASURE time those
// the model cannot separate (decide.h, measure.h), and the store keeps the
// winner.
// What it plans with is given to it: each side, the store and the timing
// harness, so that the policy runs the same against the engine and the
// real FFTW as against a test's stand-ins.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "dispatch/cpu_side.h"
#include "dispatch/dispatch.h"
#include "dispatch/fp16_ways.h"
#include "dispatch/gpu_side.h"
#include "dispatch/store.h"
#include "dispatch/timing.h"

namespace gpufftw {

struct Planner {
  GpuSide *gpu = nullptr;  // none: built without CUDA, every plan on the CPU
  CpuSide *cpu = nullptr;
  std::function<DispatchStore &()> store;  // made at its first use
  Reading read;                            // time_execute, or a test's
  // GPUFFTW_FP16_WAY, where it forces a way: a restriction on the GPU's
  // ways of an fp16 problem (fp16_candidates.h).
  std::optional<Fp16Way> forced_way;
  // Zeroes a problem's input on the host before its plans are read on it
  // (zero_input, reading_input.h; a test's stand-in records the call).
  std::function<void(const Problem &)> zero_input;

  // The real FFTW's plan (at most `threads`; 0: the program's count), its
  // planner kept to what the plan's deadline leaves (plan_deadline()).
  Dispatched on_cpu(const Problem &p, std::string why, int threads = 0) const;
  // Under FFTW_WISDOM_ONLY, the real FFTW's plan where the real FFTW itself
  // would give one: where the program's count (`program`) has wisdom; else
  // none, said so. It runs at `threads` where that count has wisdom too,
  // else at the program's count, said so.
  Dispatched wisdom_only_on_cpu(const Problem &p, const std::string &why, int threads, int program) const;

  // The GPU's calibrated rates from the store (calibrated at the first
  // ask, store.h), handed to the GPU as they are read: the engine orders
  // its ways by the rates dispatch prices with.
  std::optional<GpuRates> gpu_rates() const;
  // The rates the store holds, neither calibrated nor checked, handed to
  // the GPU, for a GPU plan made without a price (a recalled choice, the
  // GPU alone, GPUFFTW_MODE=gpu): once the machine is calibrated every
  // process gives a problem the same job; until then the engine keeps its
  // nominal rates. A plan the GPU cannot take never reads the store for
  // them.
  void hand_held_rates() const;
};

// Where the problem runs under the mode, and why.
Dispatched choose(const Planner &planner, const Problem &p, gpufftw_mode mode);

}  // namespace gpufftw
