#include "core/readings.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace gpufftw {

double read_runs(const Sample &sample, const ReadingRule &rule) {
  const double warm_up = rule.warm_up ? sample() : HUGE_VAL;
  if (warm_up < 0) return warm_up;
  std::vector<double> t;
  double spent = 0;
  while (static_cast<int>(t.size()) < rule.most_samples) {
    const double s = sample();
    if (s < 0) return s;
    if (s > rule.one_is_enough_s) return s;
    t.push_back(s);
    if (t.size() == 1 && std::min(warm_up, s) > rule.give_up_s) return std::min(warm_up, s);
    spent += s;
    if (static_cast<int>(t.size()) >= rule.least_samples && spent >= rule.least_spent_s) break;
  }
  if (rule.keep == ReadingRule::Keep::Least) return *std::min_element(t.begin(), t.end());
  std::nth_element(t.begin(), t.begin() + t.size() / 2, t.end());
  return t[t.size() / 2];
}

}  // namespace gpufftw
