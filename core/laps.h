// Where a planner's time goes, step by step, for the debug log: each call
// adds a step and the time since the one before it.
#pragma once

#include <chrono>
#include <string>

namespace gpufftw {

class Laps {
 public:
  void operator()(const char *step);
  // "step 1.2 ms, step 0.3 ms".
  const std::string &text() const { return text_; }

 private:
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
  std::string text_;
};

}  // namespace gpufftw
