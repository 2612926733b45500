// The distributed planner's two ways (mpi/composed/ways.h), from what
// every rank said: which applies, and the coded reason where one does not;
// and what the real FFTW MPI gets wrong, which decides them
// (real_fftw_mpi_fails, mpi/composed/decide.h). No MPI call, no GPU.
#include "mpi/composed/ways.h"

#include <fftw3-mpi.h>
#include <gtest/gtest.h>

#include <vector>

#include "mpi/composed/decide.h"

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

// The layout fftw_mpi_plan_many_dft_c2r (or _r2c, or the complex DFT)
// has on n_pes ranks, as the planner makes it.
Layout layout_of(Kind kind, std::vector<ptrdiff_t> n, ptrdiff_t howmany, ptrdiff_t iblock, ptrdiff_t oblock,
                 unsigned flags, int n_pes) {
  Layout l;
  std::string why;
  const int rnk = static_cast<int>(n.size());
  const bool made =
      kind == Kind::C2R   ? make_layout_c2r(rnk, n.data(), howmany, iblock, oblock, flags, n_pes, &l, &why)
      : kind == Kind::R2C ? make_layout_r2c(rnk, n.data(), howmany, iblock, oblock, flags, n_pes, &l, &why)
                          : make_layout(rnk, n.data(), howmany, iblock, oblock, flags, n_pes, &l, &why);
  EXPECT_TRUE(made) << why;
  return l;
}
bool fails(const Layout &l, bool in_place) { return real_fftw_mpi_fails(l, in_place) != nullptr; }

TEST(MpiRealFails, ADimensionOfSize1WhateverTheKind) {
  for (Kind k : {Kind::C2C, Kind::R2C, Kind::C2R}) {
    EXPECT_TRUE(fails(layout_of(k, {1, 8, 16}, 1, 0, 0, 0, 1), false));
    EXPECT_TRUE(fails(layout_of(k, {16, 1}, 1, 0, 0, 0, 3), true));
  }
  EXPECT_FALSE(fails(layout_of(Kind::C2C, {5, 7}, 2, 0, 2, 0, 3), false));
}

TEST(MpiRealFails, AC2rWhoseRanksHoldOtherCountsOfInputThanOfOutputPlanes) {
  // 3x24, howmany 2, on 2 ranks: the default block holds 2 and 1 planes of
  // the input, a block of 3 all 3 of the output on rank 0.
  EXPECT_TRUE(fails(layout_of(Kind::C2R, {3, 24}, 2, 0, 3, 0, 2), true));
  EXPECT_TRUE(fails(layout_of(Kind::C2R, {3, 24}, 2, 0, 3, 0, 2), false));
  // 7x5x12 on 4 ranks, blocks 7 and the default; asked to preserve the
  // input too (the layout is made; the composed path gives no plan).
  EXPECT_TRUE(fails(layout_of(Kind::C2R, {7, 5, 12}, 2, 7, 0, FFTW_PRESERVE_INPUT, 4), false));
  // 4 planes on 4 ranks in blocks of 1 (1,1,1,1) and 2 (2,2,0,0).
  EXPECT_TRUE(fails(layout_of(Kind::C2R, {4, 6}, 1, 1, 2, 0, 4), false));
  // Other blocks that cut the planes alike are right: the default and
  // its own size given, or the same block twice.
  EXPECT_FALSE(fails(layout_of(Kind::C2R, {5, 6}, 1, 0, 3, 0, 2), false));
  EXPECT_FALSE(fails(layout_of(Kind::C2R, {5, 6}, 1, 2, 2, 0, 3), true));
  EXPECT_FALSE(fails(layout_of(Kind::C2R, {7, 5, 12}, 2, 0, 0, 0, 4), false));
  // A transposed input is transformed otherwise: right with any blocks.
  EXPECT_FALSE(fails(layout_of(Kind::C2R, {5, 6}, 1, 4, 3, FFTW_MPI_TRANSPOSED_IN, 2), false));
  // The r2c and the complex DFT with the same blocks are right.
  EXPECT_FALSE(fails(layout_of(Kind::R2C, {3, 24}, 2, 0, 3, 0, 2), true));
  EXPECT_FALSE(fails(layout_of(Kind::C2C, {3, 24}, 2, 0, 3, 0, 2), true));
}

TEST(MpiRealFails, AnOutOfPlaceC2rAllOnOneRankOfSeveral) {
  // 16x14 with blocks of 16 on 3 ranks: ranks 1 and 2 hold nothing.
  EXPECT_TRUE(fails(layout_of(Kind::C2R, {16, 14}, 1, 16, 16, 0, 3), false));
  EXPECT_FALSE(fails(layout_of(Kind::C2R, {16, 14}, 1, 16, 16, 0, 3), true)) << "in place, it is right";
  EXPECT_TRUE(fails(layout_of(Kind::C2R, {4, 32, 4}, 1, 5, 5, 0, 2), false));
  // On one rank, and where no rank holds it all, it is right.
  EXPECT_FALSE(fails(layout_of(Kind::C2R, {16, 14}, 1, 0, 0, 0, 1), false));
  EXPECT_FALSE(fails(layout_of(Kind::C2R, {16, 14}, 1, 8, 8, 0, 3), false));
  EXPECT_FALSE(fails(layout_of(Kind::R2C, {16, 14}, 1, 16, 16, 0, 3), false));
}

TEST(MpiRealFails, TheProblemsLeftWholeToTheRealFftwMpiThatBreakIt) {
  EXPECT_NE(real_fftw_mpi_breaks_dft_1d(1), nullptr);
  EXPECT_EQ(real_fftw_mpi_breaks_dft_1d(2), nullptr);
  EXPECT_EQ(real_fftw_mpi_breaks_dft_1d(400), nullptr);
  const ptrdiff_t one_9[2] = {1, 9}, nine_1[2] = {9, 1}, one_9_3[3] = {1, 9, 3};
  for (int kind : {FFTW_REDFT10, FFTW_REDFT11, FFTW_RODFT00, FFTW_RODFT10, FFTW_RODFT11}) {
    EXPECT_NE(real_fftw_mpi_breaks_r2r(2, one_9, kind, 0, 2), nullptr) << kind;
    EXPECT_NE(real_fftw_mpi_breaks_r2r(3, one_9_3, kind, 0, 4), nullptr) << kind;
    EXPECT_EQ(real_fftw_mpi_breaks_r2r(2, one_9, kind, 0, 1), nullptr) << "one rank: " << kind;
    EXPECT_EQ(real_fftw_mpi_breaks_r2r(2, nine_1, kind, 0, 2), nullptr) << kind;
    EXPECT_EQ(real_fftw_mpi_breaks_r2r(2, one_9, kind, FFTW_MPI_TRANSPOSED_OUT, 2), nullptr) << kind;
  }
  // The kinds whose size-1 transform is a copy are right.
  for (int kind : {FFTW_R2HC, FFTW_HC2R, FFTW_DHT, FFTW_REDFT01, FFTW_RODFT01})
    EXPECT_EQ(real_fftw_mpi_breaks_r2r(2, one_9, kind, 0, 2), nullptr) << kind;
}

}  // namespace
}  // namespace composed
}  // namespace mpi
}  // namespace gpufftw
