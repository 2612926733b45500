// Our kernels' tuning within the plan's deadline (engine/in_core/
// tuning_within.h), on the CPU: whether it starts, whether it goes on to
// the next variant, and whether its pick is remembered.
#include "engine/in_core/tuning_within.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

namespace gpufftw::engine {
namespace {

TEST(TuningWithin, WithTimeLeftEveryVariantIsTimedAndThePickRemembered) {
  for (const double limit : {-1.0, 100.0}) {
    TuningWithin tuning{Deadline(limit)};
    EXPECT_TRUE(tuning.starts());
    EXPECT_TRUE(tuning.goes_on());
    EXPECT_TRUE(tuning.goes_on());
    EXPECT_TRUE(tuning.remembered());
  }
}

TEST(TuningWithin, PastTheDeadlineNothingStartsAndNothingIsRemembered) {
  TuningWithin tuning{Deadline(0)};
  EXPECT_FALSE(tuning.starts());
  EXPECT_FALSE(tuning.goes_on());
  EXPECT_FALSE(tuning.remembered());
}

// The deadline passing between variants: the next is not timed, and the
// pick is not remembered; passing after the last, nothing was cut short.
TEST(TuningWithin, ADeadlinePassingStopsTheNextVariantAndIsNotRemembered) {
  const Deadline deadline(0.01);
  TuningWithin tuning{deadline};
  while (!deadline.passed()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  EXPECT_TRUE(tuning.remembered()) << "no variant refused yet";
  EXPECT_FALSE(tuning.goes_on());
  EXPECT_FALSE(tuning.remembered());
}

}  // namespace
}  // namespace gpufftw::engine
