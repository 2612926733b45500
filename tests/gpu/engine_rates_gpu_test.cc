// The rates the engine prices its solvers by, measured on this machine
// (engine.h's measure_rates): each positive and in the range of a real
// host link and device memory, device memory faster than the link, and
// the peer rate no lower than a link's where the set has two GPUs. Every
// test skips, saying so, where there is no usable GPU.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "engine/engine.h"

namespace {

using gpufftw::engine::Rates;

class EngineRates : public testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    if (!gpufftw::engine::gpu_available(&why)) GTEST_SKIP() << "no usable GPU here (" << why << "): skipped";
  }
};

TEST_F(EngineRates, MeasuredRatesAreThoseOfARealMachine) {
  Rates r;
  r.link = r.device = r.peer = 0;
  std::string why;
  ASSERT_TRUE(gpufftw::engine::measure_rates(&r, &why)) << why;
  // A PCIe 3.0 x4 link to an NVLink-C2C one; HBM or GDDR.
  EXPECT_GT(r.link, 1e9);
  EXPECT_LT(r.link, 1e12);
  EXPECT_GT(r.device, 1e11);
  EXPECT_LT(r.device, 1e14);
  EXPECT_GT(r.device, r.link);
  // Peer access where the set has it, else the link's route.
  EXPECT_GT(r.peer, 1e9);
  if (gpufftw::engine::devices().size() < 2) {
    EXPECT_EQ(r.peer, r.link);
  }
  std::printf("measured: link %.1f GB/s, device memory %.0f GB/s, peer %.1f GB/s (%zu GPU%s in the set)\n",
              1e-9 * r.link, 1e-9 * r.device, 1e-9 * r.peer, gpufftw::engine::devices().size(),
              gpufftw::engine::devices().size() == 1 ? "" : "s");
}

// The rates the planner reads are the last set, each of them.
TEST_F(EngineRates, TheRatesReadAreTheLastSet) {
  const Rates before = gpufftw::engine::rates();
  Rates told;
  told.link = 12e9;
  gpufftw::engine::set_rates(told);
  EXPECT_EQ(gpufftw::engine::rates().link, 12e9);
  EXPECT_EQ(gpufftw::engine::rates().device, Rates{}.device);
  EXPECT_EQ(gpufftw::engine::rates().peer, Rates{}.peer);
  gpufftw::engine::set_rates(before);
}

}  // namespace
