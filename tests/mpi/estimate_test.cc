// The layout's sizes and exchanges as the MPI layer prices the real FFTW
// MPI (mpi/composed/estimate.h), without a GPU or MPI: the sizes the model
// prices, the bytes the exchanges send, how many there are, and the
// all-to-all that reads their floor.
#include <fftw3-mpi.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

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

TEST(Estimate, RealTransformsArePricedOnTheirRealSizes) {
  // The layout holds the complex side's last size, n/2 + 1; the model
  // prices an r2c or c2r by its real one, as FFTW is given it.
  const Layout r2c = layout_of(Kind::R2C, {16, 16}, 2);
  ASSERT_EQ(r2c.n.back(), 9);
  EXPECT_EQ(whole_sizes(r2c), (std::vector<long>{16, 16}));
  const Layout c2r = layout_of(Kind::C2R, {10, 6, 7}, 3);
  EXPECT_EQ(whole_sizes(c2r), (std::vector<long>{10, 6, 7}));
  // A c2c's sizes are its own, and howmany is left to the caller.
  const Layout c2c = layout_of(Kind::C2C, {16, 9}, 2, 3);
  EXPECT_EQ(whole_sizes(c2c), (std::vector<long>{16, 9}));
}

// Each count below is worked by hand from FFTW's default blocks: a unit is
// one (i0, i1) pair's `rest` values, and a rank sends every unit of its
// part but those it keeps.
TEST(Estimate, TwoExchangesInFftwsDefaultLayout) {
  // 16x16 on 2 ranks: rank q holds 8 rows of 16 and keeps 8x8 of them in
  // each exchange, so it sends 64 units in each, 2 x 64 in all.
  EXPECT_EQ(exchange_bytes(layout_of(Kind::C2C, {16, 16}, 2), 2, 16), 2 * 64 * 16.0);
  EXPECT_EQ(exchange_bytes(layout_of(Kind::C2C, {16, 16}, 2), 2, 8), 2 * 64 * 8.0);
  // 10x6x4 on 3 ranks: rows cut 4, 4, 2, columns 2, 2, 2, rest 4 values.
  // First: rank 0 sends 4 x (6 - 2) = 16 units, the most; second: rank 2
  // holds all 10 rows of its 2 columns and keeps 2 x 2: 16 units.
  EXPECT_EQ(exchange_bytes(layout_of(Kind::C2C, {10, 6, 4}, 3), 3, 16), (16 + 16) * 4 * 16.0);
  // Howmany multiplies every unit.
  EXPECT_EQ(exchange_bytes(layout_of(Kind::C2C, {10, 6, 4}, 3, 2), 3, 16), (16 + 16) * 8 * 16.0);
}

TEST(Estimate, TransposedOutputSavesTheSecondExchange) {
  EXPECT_EQ(exchange_bytes(layout_of(Kind::C2C, {16, 16}, 2, 1, FFTW_MPI_TRANSPOSED_OUT), 2, 16), 64 * 16.0);
  // TRANSPOSED_IN alone: the input cut along 1, the output along 0, which
  // the first exchange gathers: one exchange.
  EXPECT_EQ(exchange_bytes(layout_of(Kind::C2C, {16, 12}, 2, 1, FFTW_MPI_TRANSPOSED_IN), 2, 16), 6 * 8 * 16.0);
  // Both: the output cut along 1 as the input is, which the second
  // exchange gives back: 6 columns of 8 rows each way.
  EXPECT_EQ(
      exchange_bytes(layout_of(Kind::C2C, {16, 12}, 2, 1, FFTW_MPI_TRANSPOSED_IN | FFTW_MPI_TRANSPOSED_OUT), 2, 16),
      2 * 6 * 8 * 16.0);
}

TEST(Estimate, RealTransformsExchangeTheirComplexHalf) {
  // 16x16 r2c: 16 x 9 complex values, the 9 columns cut 5 and 4. Rank 0
  // keeps 8x5 of its 8x9 (sends 32), rank 1 8x4 (sends 40); back, rank 0
  // holds 16x5 and keeps 8x5 (sends 40), rank 1 16x4 (sends 32).
  EXPECT_EQ(exchange_bytes(layout_of(Kind::R2C, {16, 16}, 2), 2, 16), (40 + 40) * 16.0);
  EXPECT_EQ(exchange_bytes(layout_of(Kind::C2R, {16, 16}, 2), 2, 16), (40 + 40) * 16.0);
}

TEST(Estimate, OneRankExchangesNothing) {
  EXPECT_EQ(exchange_bytes(layout_of(Kind::C2C, {16, 16}, 1), 1, 16), 0);
}

TEST(Estimate, ALargeSlabSendsAQuarterOfTheArrayInEachExchange) {
  // 256x256x192 on 2 ranks: each rank sends 128 x 128 units of 192 values
  // of 16 bytes in each exchange.
  EXPECT_EQ(exchange_bytes(layout_of(Kind::C2C, {256, 256, 192}, 2), 2, 16), 2 * 128 * 128 * 192 * 16.0);
}

// As the serial planner counts a problem's points: r2c and c2r by their
// real sizes, howmany included.
TEST(Estimate, ThePointsAreTheSerialProblems) {
  EXPECT_EQ(whole_points(layout_of(Kind::C2C, {10, 6, 4}, 3)), 240);
  EXPECT_EQ(whole_points(layout_of(Kind::R2C, {16, 16}, 2, 2)), 512);
  EXPECT_EQ(whole_points(layout_of(Kind::C2R, {16, 15}, 2)), 240);
}

TEST(Estimate, TheExchangesAreCountedAsTheyAreWeighed) {
  EXPECT_EQ(exchange_count(layout_of(Kind::C2C, {16, 16}, 2), 2), 2);
  EXPECT_EQ(exchange_count(layout_of(Kind::R2C, {16, 16}, 3), 3), 2);
  EXPECT_EQ(exchange_count(layout_of(Kind::C2C, {16, 16}, 2, 1, FFTW_MPI_TRANSPOSED_OUT), 2), 1);
  EXPECT_EQ(exchange_count(layout_of(Kind::C2C, {16, 12}, 2, 1, FFTW_MPI_TRANSPOSED_IN), 2), 1);
  EXPECT_EQ(exchange_count(layout_of(Kind::C2C, {16, 12}, 2, 1, FFTW_MPI_TRANSPOSED_IN | FFTW_MPI_TRANSPOSED_OUT), 2),
            2);
  EXPECT_EQ(exchange_count(layout_of(Kind::C2C, {16, 16}, 1), 1), 0);
}

TEST(Estimate, AnAllToAllStandsForOneExchangeUpToItsCap) {
  // 16x16 on 2 ranks: 64 units of 16 bytes in each of two exchanges, all
  // to the one other rank.
  EXPECT_EQ(alltoall_bytes_each(layout_of(Kind::C2C, {16, 16}, 2), 2, 16, 1 << 20), 64u * 16);
  // 10x6x4 on 3 ranks: 16 units of 4 values in each exchange, over the
  // two others.
  EXPECT_EQ(alltoall_bytes_each(layout_of(Kind::C2C, {10, 6, 4}, 3), 3, 16, 1 << 20), 16u * 4 * 16 / 2);
  // Past the cap, the cap spread over the others.
  EXPECT_EQ(alltoall_bytes_each(layout_of(Kind::C2C, {256, 256, 192}, 3), 3, 16, 1000), 500u);
  EXPECT_EQ(alltoall_bytes_each(layout_of(Kind::C2C, {16, 16}, 1), 1, 16, 1 << 20), 0u);
}

}  // namespace
}  // namespace composed
}  // namespace mpi
}  // namespace gpufftw
