// The one way gpufftw times what it chooses between: a plan's execute on
// the host's clock, a kernel on the GPU's events, a distributed plan's
// slowest rank. Each level gives one sample of its run; the rule for
// warming up, how many samples, which to keep and when to stop is here.
#pragma once

#include <cmath>
#include <functional>

namespace gpufftw {

// One run of what is timed: its seconds, or a negative value where the run
// failed.
using Sample = std::function<double()>;

struct ReadingRule {
  enum class Keep { Median, Least };
  // A warm-up run first, read only for give_up_s: one run just after
  // planning is no reading (threads starting, first-touch pages, caches).
  // None where one run is all a rival may cost.
  bool warm_up = true;
  Keep keep = Keep::Median;
  int least_samples = 5;
  int most_samples = 64;
  double least_spent_s = 0;         // samples are taken until this much was spent in them too
  double one_is_enough_s = HUGE_VAL;  // a sample over this is the reading alone (a long run)
  // Where the warm-up and the first sample both read over this, the faster
  // of the two is the reading: the other side is faster by then, whatever
  // the rest would say.
  double give_up_s = HUGE_VAL;
};

// The reading of `sample` under `rule`; negative where a run failed.
double read_runs(const Sample &sample, const ReadingRule &rule);

}  // namespace gpufftw
