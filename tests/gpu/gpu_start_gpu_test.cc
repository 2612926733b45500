// The process's start on the GPU (CUDA counting the devices, the first
// device's context, cuFFT loaded), which the first plan to ask for the GPU
// pays for, is not that plan's work (OutsideThePlan): the plan keeps its
// whole time limit. Skips, saying so, where there is no usable GPU; must
// run in a process of its own, as ctest runs each test.
#include <gtest/gtest.h>

#include <string>

#include "core/time_limit.h"
#include "engine/engine.h"

namespace {

TEST(GpuStart, IsNotCountedAgainstThePlanThatStartsIt) {
  ASSERT_FALSE(gpufftw::engine::gpu_started()) << "the process used the GPU before this test";
  const gpufftw::PlanDeadline plan(gpufftw::Deadline(10));
  std::string why;
  const bool usable = gpufftw::engine::gpu_available(&why);
  const double spent = gpufftw::plan_deadline().spent();
  if (!usable) GTEST_SKIP() << "no usable GPU here (" << why << "): skipped";
  // The start takes a few hundred milliseconds; what is left is the
  // test's own steps.
  EXPECT_LT(spent, 0.05) << "the GPU's start was counted against the plan";
}

}  // namespace
