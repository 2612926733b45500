// A plan near the crossing of the two sides. Where the cost model (or a
// timing while planning) puts the real FFTW and the GPU within
// kCloseRatio of each other, neither reading picks reliably: every sweep
// point over 1.5x on the H100 machine was such a point, placed by a model
// 1.1-1.6x off or by one slow timing (docs/dispatch-sweep.md). So the
// plan keeps the side it leans to and makes the other at its first turn;
// its first executes run each side in turn on the program's own arrays,
// and from then on the faster one runs. The first execute runs the
// leaning side, so a program that executes once sees no difference.
//
// Turns are blocks of kBlock executes, and the first of each block is not
// timed: an execute right after the other side's, on the same arrays,
// runs up to 3x slower than the side does on its own (H100 machine: a
// GPU execute after the real FFTW's on 16 threads 1.1 ms against 0.38;
// the CPU's caches hold the lines the GPU's copies then write), which
// alternating single executes timed as the side's own speed.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "shim/plan.h"

namespace gpufftw {

class TrialPlan final : public Plan {
 public:
  // Each side runs kRounds blocks of kBlock executes, in turn; then the
  // side with the fastest sample (of kRounds * (kBlock - 1) each) is kept:
  // noise only adds (threads waking, the program's other work between
  // executes), and medians of four read the real FFTW's 16 threads up to
  // 3x slow on the H100 machine (sweep 17:13).
  static constexpr int kBlock = 3, kRounds = 2;
  static constexpr int kTurns = 2 * kRounds * kBlock;

  using MakeSide = std::function<std::unique_ptr<Plan>()>;
  // Told once the plan settles: where it runs, and both sides' times.
  using Settled = std::function<void(bool gpu, double gpu_s, double cpu_s)>;
  using Clock = double (*)();  // seconds

  // `lean` runs first; `other` is the other side's plan where it exists
  // already, else `make_other` makes it at its first turn (under the
  // planner's lock) or gives nullptr, and the plan stays on `lean`.
  TrialPlan(Problem problem, std::unique_ptr<Plan> lean, std::unique_ptr<Plan> other, MakeSide make_other,
            Settled settled, Clock clock = steady_seconds);

  void execute(const Arrays &arrays) override;
  void print(FILE *out) const override { current()->print(out); }
  void flops(double *add, double *mul, double *fma) const override { current()->flops(add, mul, fma); }
  double cost() const override { return current()->cost(); }
  double estimate_cost() const override { return current()->estimate_cost(); }
  // The side the next execute runs on: the leaning one until settled.
  const char *where() const override { return current()->where(); }
  const char *why() const override;

  static double steady_seconds();

 private:
  Plan *current() const;
  void settle(Plan *chosen, const std::string &outcome);

  std::unique_ptr<Plan> lean_, other_;
  MakeSide make_other_;
  Settled settled_;
  Clock clock_;
  std::mutex mutex_;  // held through each execute until settled
  int turn_ = 0;
  std::vector<double> times_[2];  // seconds of lean_'s and other_'s samples
  std::string why_;               // written once, before chosen_ is
  std::atomic<Plan *> chosen_{nullptr};
};

}  // namespace gpufftw
