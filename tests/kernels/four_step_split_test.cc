// The four-step split of lengths past one pass (engine/kernels/four_step_split.h),
// on the host.
#include "engine/kernels/four_step_split.h"

#include <gtest/gtest.h>

namespace {

using gpufftw::engine::kernels::four_step_split;

TEST(FourStepSplit, ClosestFactorsEachAtMost4096) {
  struct Want {
    long long n;
    int n1, n2;
  };
  for (const Want &w : {Want{8192, 64, 128}, Want{12288, 96, 128}, Want{10000, 100, 100}, Want{19683, 81, 243},
                        Want{65536, 256, 256}, Want{1 << 20, 1024, 1024}, Want{1 << 22, 2048, 2048},
                        Want{1 << 24, 4096, 4096}, Want{1009LL * 4096, 2018, 2048}, Want{4097, 17, 241},
                        Want{3LL * 4096 * 1024, 3072, 4096}}) {
    int n1 = 0, n2 = 0;
    ASSERT_TRUE(four_step_split(w.n, &n1, &n2)) << w.n;
    EXPECT_EQ(n1, w.n1) << w.n;
    EXPECT_EQ(n2, w.n2) << w.n;
    EXPECT_EQ(static_cast<long long>(n1) * n2, w.n);
  }
}

TEST(FourStepSplit, NoSplitWherePrimeOrTooLarge) {
  int n1 = 0, n2 = 0;
  for (long long n : {4099LL, 2LL * 4099, 4097LL * 4096, (1LL << 24) * 2, 1LL})
    EXPECT_FALSE(four_step_split(n, &n1, &n2)) << n;
}

}  // namespace
