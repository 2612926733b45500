#include "dispatch/why.h"

#include <cstdio>

#include "dispatch/cost_model.h"

namespace gpufftw {

std::string ms(double seconds) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g ms", 1e3 * seconds);
  return buf;
}

std::string threads_text(int threads) { return std::to_string(threads) + (threads == 1 ? " thread" : " threads"); }

std::string cpu_terms(const Problem &p, int threads, bool model) {
  std::string terms = " (" + threads_text(threads);
  char scaled[64];
  if (between_work(p, 1) != 1) {
    std::snprintf(scaled, sizeof scaled, ", %.2fx back to back", kBackToBackFastBy);
    terms += scaled;
  }
  if (model && past_codelets(p)) {
    std::snprintf(scaled, sizeof scaled, ", %.0fx past its codelets", kPastCodeletsBy);
    terms += scaled;
  }
  return terms + ")";
}

}  // namespace gpufftw
