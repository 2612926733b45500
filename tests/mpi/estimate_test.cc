// FFTW_ESTIMATE's priced choice under GPUFFTW_MPI_PATH=auto
// (mpi/composed/estimate.h), without a GPU or MPI: the verdict drawn from
// the two low prices, and the sizes each side is priced on.
#include <fftw3-mpi.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "dispatch/cost_model.h"
#include "mpi/composed/estimate.h"
#include "mpi/composed/layout.h"

namespace gpufftw {
namespace mpi {
namespace composed {
namespace {

// The layout FFTW gives `n` of kind `kind` on n_pes ranks, default blocks.
Layout layout_of(Kind kind, std::vector<ptrdiff_t> n, int n_pes, ptrdiff_t howmany = 1, unsigned flags = 0) {
  Layout l;
  std::string why;
  const int rnk = static_cast<int>(n.size());
  const bool made =
      kind == Kind::C2C   ? make_layout(rnk, n.data(), howmany, 0, 0, flags, n_pes, &l, &why)
      : kind == Kind::R2C ? make_layout_r2c(rnk, n.data(), howmany, 0, 0, flags, n_pes, &l, &why)
                          : make_layout_c2r(rnk, n.data(), howmany, 0, 0, flags, n_pes, &l, &why);
  EXPECT_TRUE(made) << why;
  return l;
}

TEST(Estimate, AMissingPriceKeepsTheComposedPlan) {
  EXPECT_FALSE(real_surely_faster(-1, 10));
  EXPECT_FALSE(real_surely_faster(1e-3, -1));
  EXPECT_FALSE(real_surely_faster(-1, -1));
  EXPECT_FALSE(real_surely_faster(0, 10));
}

TEST(Estimate, TheRealFftwMpiOnlyWhereSureToBeFaster) {
  // Sure: kSureRatio times its price still below the composed plan's.
  EXPECT_TRUE(real_surely_faster(0.01, 0.01 * kSureRatio * 1.01));
  EXPECT_TRUE(real_surely_faster(0.002, 0.5));
  // Faster by the model, but within kSureRatio: both prices are low, so
  // no verdict is drawn, and the composed plan stays.
  EXPECT_FALSE(real_surely_faster(0.01, 0.01 * kSureRatio * 0.99));
  EXPECT_FALSE(real_surely_faster(1, kSureRatio));
  EXPECT_FALSE(real_surely_faster(1, 1.5));
  // Slower: composed.
  EXPECT_FALSE(real_surely_faster(10, 1));
}

TEST(Estimate, AShareIsTheFirstDimensionCutUp) {
  EXPECT_EQ(share_sizes(layout_of(Kind::C2C, {16, 16}, 2), 2), (std::vector<long>{8, 16}));
  EXPECT_EQ(share_sizes(layout_of(Kind::C2C, {17, 16}, 2), 2), (std::vector<long>{9, 16}));
  EXPECT_EQ(share_sizes(layout_of(Kind::C2C, {256, 256, 256}, 2), 2), (std::vector<long>{128, 256, 256}));
  EXPECT_EQ(share_sizes(layout_of(Kind::C2C, {10, 6, 4}, 3), 3), (std::vector<long>{4, 6, 4}));
  // Fewer planes than ranks: one plane a rank.
  EXPECT_EQ(share_sizes(layout_of(Kind::C2C, {3, 5, 7}, 4), 4), (std::vector<long>{1, 5, 7}));
  // One rank holds it all.
  EXPECT_EQ(share_sizes(layout_of(Kind::C2C, {12, 10}, 1), 1), (std::vector<long>{12, 10}));
  // The first dimension whichever way the input is cut.
  EXPECT_EQ(share_sizes(layout_of(Kind::C2C, {16, 12}, 2, 1, FFTW_MPI_TRANSPOSED_IN), 2), (std::vector<long>{8, 12}));
}

TEST(Estimate, RealTransformsArePricedOnTheirRealSizes) {
  // The layout holds the complex side's last size, n/2 + 1; the model
  // prices an r2c or c2r by its real one, as FFTW is given it.
  const Layout r2c = layout_of(Kind::R2C, {16, 16}, 2);
  ASSERT_EQ(r2c.n.back(), 9);
  EXPECT_EQ(whole_sizes(r2c), (std::vector<long>{16, 16}));
  EXPECT_EQ(share_sizes(r2c, 2), (std::vector<long>{8, 16}));
  const Layout c2r = layout_of(Kind::C2R, {10, 6, 7}, 3);
  EXPECT_EQ(whole_sizes(c2r), (std::vector<long>{10, 6, 7}));
  EXPECT_EQ(share_sizes(c2r, 3), (std::vector<long>{4, 6, 7}));
  // A c2c's sizes are its own, and howmany is left to the caller.
  const Layout c2c = layout_of(Kind::C2C, {16, 9}, 2, 3);
  EXPECT_EQ(whole_sizes(c2c), (std::vector<long>{16, 9}));
  EXPECT_EQ(share_sizes(c2c, 2), (std::vector<long>{8, 9}));
}

}  // namespace
}  // namespace composed
}  // namespace mpi
}  // namespace gpufftw
