#include "dispatch/timing.h"

#include <algorithm>

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

std::vector<double> read_in_turn(const Reading &read, const std::vector<Plan *> &plans) {
  std::vector<double> s(plans.size(), HUGE_VAL);
  for (int i = 0; i < 3; ++i)
    for (size_t k = 0; k < plans.size(); ++k)
      if (plans[k]) s[k] = std::min(s[k], read(plans[k], HUGE_VAL));
  return s;
}

}  // namespace gpufftw
