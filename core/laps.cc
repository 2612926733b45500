#include "core/laps.h"

#include <cstdio>

namespace gpufftw {

void Laps::operator()(const char *step) {
  const auto now = std::chrono::steady_clock::now();
  char lap[96];
  std::snprintf(lap, sizeof lap, "%s%s %.1f ms", text_.empty() ? "" : ", ", step,
                std::chrono::duration<double, std::milli>(now - last_).count());
  text_ += lap;
  last_ = now;
}

}  // namespace gpufftw
