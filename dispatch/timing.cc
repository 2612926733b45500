#include "dispatch/timing.h"

#include <algorithm>
#include <cstdio>
#include <vector>

#include "core/log.h"

namespace gpufftw {

double time_execute(Plan *plan, double enough) {
  using clock = std::chrono::steady_clock;
  const Arrays arrays;
  std::vector<double> t;
  double spent = 0, warm_up = 0;
  for (int i = -1; i < 64; ++i) {
    const auto t0 = clock::now();
    plan->execute(arrays);
    const double s = std::chrono::duration<double>(clock::now() - t0).count();
    if (i < 0) {
      warm_up = s;
      continue;
    }
    if (s > 0.05) return s;
    t.push_back(s);
    if (t.size() == 1 && std::min(warm_up, s) > enough) return std::min(warm_up, s);
    spent += s;
    if (t.size() >= 5 && spent > 0.002) break;
  }
  std::nth_element(t.begin(), t.begin() + t.size() / 2, t.end());
  return t[t.size() / 2];
}

void read_in_turn(const Reading &read, Plan *a, Plan *b, double *a_s, double *b_s) {
  *a_s = *b_s = HUGE_VAL;
  for (int i = 0; i < 3; ++i) {
    if (a) *a_s = std::min(*a_s, read(a, HUGE_VAL));
    if (b) *b_s = std::min(*b_s, read(b, HUGE_VAL));
  }
}

void Laps::operator()(const char *step) {
  const auto now = std::chrono::steady_clock::now();
  char lap[64];
  std::snprintf(lap, sizeof lap, "%s%s %.1f ms", text_.empty() ? "" : ", ", step,
                std::chrono::duration<double, std::milli>(now - last_).count());
  text_ += lap;
  last_ = now;
}

void Laps::log(const Problem &p) const { GPUFFTW_LOG(Debug, "%s: measured in %s", p.describe().c_str(), text_.c_str()); }

}  // namespace gpufftw
