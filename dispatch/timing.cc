#include "dispatch/timing.h"

#include <algorithm>
#include <vector>

#include "core/readings.h"

namespace gpufftw {

double time_execute(Plan *plan, double enough) {
  using clock = std::chrono::steady_clock;
  const Arrays arrays;
  ReadingRule rule;
  rule.least_spent_s = 0.002;
  rule.one_is_enough_s = 0.05;
  rule.give_up_s = enough;
  return read_runs(
      [plan, &arrays] {
        const auto t0 = clock::now();
        plan->execute(arrays);
        return std::chrono::duration<double>(clock::now() - t0).count();
      },
      rule);
}

void read_in_turn(const Reading &read, Plan *a, Plan *b, double *a_s, double *b_s) {
  *a_s = *b_s = HUGE_VAL;
  for (int i = 0; i < 3; ++i) {
    if (a) *a_s = std::min(*a_s, read(a, HUGE_VAL));
    if (b) *b_s = std::min(*b_s, read(b, HUGE_VAL));
  }
}

}  // namespace gpufftw
