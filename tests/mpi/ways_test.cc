// The distributed planner's two ways (mpi/composed/ways.h), from what
// every rank said: which applies, and the coded reason where one does not.
// No MPI call, no GPU.
#include "mpi/composed/ways.h"

#include <gtest/gtest.h>

namespace gpufftw {
namespace mpi {
namespace composed {
namespace {

// Every rank on the same path, with a GPU on every rank or not.
Vote all(const char *path, bool gpu) {
  const std::string p = path;
  return Vote{p != "real", p == "composed", p != "real" && gpu, p == "auto"};
}

TEST(MpiWays, AutoWithAGpuEverywhereWeighsBothWhenMeasuring) {
  const Ways w = mpi_ways(all("auto", true), false, true, true);
  EXPECT_TRUE(w.composed.applies());
  EXPECT_TRUE(w.real.applies());
}

TEST(MpiWays, FftwEstimateComposesUnweighedWhereEveryRankHasAGpu) {
  const Ways w = mpi_ways(all("auto", true), false, false, true);
  EXPECT_TRUE(w.composed.applies());
  EXPECT_EQ(w.real.unfit, Unfit::NotMeasuring);
}

TEST(MpiWays, FftwEstimateWithoutAGpuEverywhereLeavesItToTheRealFftwMpi) {
  Vote v = all("auto", true);
  v.all_gpu = false;  // one rank has none
  const Ways w = mpi_ways(v, false, false, true);
  EXPECT_EQ(w.composed.unfit, Unfit::NoGpuToEstimate);
  EXPECT_EQ(w.composed.why_not, "FFTW_ESTIMATE, not every rank has a GPU, and GPUFFTW_MPI_PATH is not composed");
  // Measuring, both are read: the composed plan runs on the CPU there.
  EXPECT_TRUE(mpi_ways(v, false, true, true).composed.applies());
  EXPECT_TRUE(mpi_ways(v, false, true, true).real.applies());
}

TEST(MpiWays, ThePathSettingRulesOutTheOtherWay) {
  Ways w = mpi_ways(all("real", true), false, true, true);
  EXPECT_EQ(w.composed.unfit, Unfit::PathReal);
  EXPECT_EQ(w.composed.why_not, "GPUFFTW_MPI_PATH=real");
  w = mpi_ways(all("composed", false), false, false, true);
  EXPECT_TRUE(w.composed.applies()) << "composed is forced, GPU or not";
  EXPECT_EQ(w.real.unfit, Unfit::PathNotAuto);
  // One rank on real is enough to rule the composed plan out.
  Vote mixed = all("auto", true);
  mixed.none_real = false;
  mixed.all_auto = false;
  EXPECT_EQ(mpi_ways(mixed, false, true, true).composed.unfit, Unfit::PathReal);
}

TEST(MpiWays, ALayoutTheRealFftwMpiFailsIsComposedAndNeverWeighed) {
  // A dimension of size 1 votes composed on every rank.
  const Ways w = mpi_ways(all("composed", false), true, true, true);
  EXPECT_TRUE(w.composed.applies());
  EXPECT_EQ(w.real.unfit, Unfit::RealFailsLayout);
}

TEST(MpiWays, NoRealPlannerToTimeLeavesTheComposedPlanUnweighed) {
  const Ways w = mpi_ways(all("auto", true), false, true, false);
  EXPECT_TRUE(w.composed.applies());
  EXPECT_EQ(w.real.unfit, Unfit::NoRealPlanner);
}

}  // namespace
}  // namespace composed
}  // namespace mpi
}  // namespace gpufftw
