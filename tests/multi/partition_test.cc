// The arithmetic of spreading a problem over several GPUs, on the CPU: the
// device list and the default set (engine/device/device_set.h), the
// shares, when shares lie apart and how chunks join into runs.
#include "engine/device/device_set.h"
#include "engine/multi/partition.h"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

namespace gpufftw::engine {
namespace {

TEST(Devices, AllListsEveryDevice) {
  std::string why;
  EXPECT_EQ(parse_devices("all", 3, &why), (std::vector<int>{0, 1, 2}));
}

TEST(Devices, AListKeepsItsOrder) {
  std::string why;
  EXPECT_EQ(parse_devices("2,0", 3, &why), (std::vector<int>{2, 0}));
  EXPECT_EQ(parse_devices("1", 2, &why), (std::vector<int>{1}));
}

TEST(Devices, BadListsAreRefusedWithAReason) {
  for (const char *bad : {"", "3", "-1", "0,0", "0,,1", "x", "1.5", "0,1,", " 1", "+1", "1 ", "0, 1",
                          "99999999999999999999"}) {
    std::string why;
    EXPECT_TRUE(parse_devices(bad, 3, &why).empty()) << bad;
    EXPECT_FALSE(why.empty()) << bad;
  }
}

TEST(Devices, TheDefaultSetIsTheFirstDevicesModel) {
  const std::vector<std::string> names = {"H200", "T4", "H200", "H200"};
  EXPECT_EQ(same_model(names, 0), (std::vector<int>{0, 2, 3}));
  EXPECT_EQ(same_model(names, 1), (std::vector<int>{1}));
  EXPECT_TRUE(same_model(names, 4).empty());
}

TEST(Shares, CoverEverythingOnceInOrderEvenly) {
  for (long long n : {1LL, 2LL, 3LL, 7LL, 64LL, 4099LL})
    for (int parts : {1, 2, 3, 8}) {
      const std::vector<Share> s = split_evenly(n, parts);
      ASSERT_EQ(static_cast<long long>(s.size()), std::min<long long>(n, parts)) << n << "/" << parts;
      long long at = 0, least = n, most = 0;
      for (const Share &x : s) {
        EXPECT_EQ(x.begin, at);
        EXPECT_GT(x.size(), 0);
        least = std::min(least, x.size());
        most = std::max(most, x.size());
        at = x.end;
      }
      EXPECT_EQ(at, n);
      EXPECT_LE(most - least, 1);
    }
}

TEST(Shares, NothingToSplit) {
  EXPECT_TRUE(split_evenly(0, 2).empty());
  EXPECT_TRUE(split_evenly(5, 0).empty());
}

// The slab split's copies out: chunks of columns joined until a copy's
// rows are wide enough.
TEST(Shares, JoinedUntilEachRunIsLargeEnough) {
  auto runs = [](long long n, int parts, long long least) {
    std::vector<std::pair<long long, long long>> out;
    for (const Share &r : join_until(split_evenly(n, parts), least)) out.push_back({r.begin, r.end});
    return out;
  };
  using Runs = std::vector<std::pair<long long, long long>>;
  // Wide chunks stay apart; narrow ones join, the last run taking the rest.
  EXPECT_EQ(runs(4096, 4, 1024), (Runs{{0, 1024}, {1024, 2048}, {2048, 3072}, {3072, 4096}}));
  EXPECT_EQ(runs(4096, 4, 2048), (Runs{{0, 2048}, {2048, 4096}}));
  EXPECT_EQ(runs(4096, 4, 3000), (Runs{{0, 3072}, {3072, 4096}}));
  EXPECT_EQ(runs(8192, 4, 8192), (Runs{{0, 8192}}));
  EXPECT_EQ(runs(100, 4, 1 << 20), (Runs{{0, 100}}));
  // Uneven chunks: each run ends where a chunk ends.
  EXPECT_EQ(runs(10, 4, 5), (Runs{{0, 6}, {6, 10}}));
  EXPECT_TRUE(join_until({}, 8).empty());
}

TEST(Shares, ApartWhereAnIterationFitsInItsStride) {
  // A batch of 1024-point transforms back to back: apart.
  EXPECT_TRUE(shares_apart(1024, 0, 1023));
  // Interleaved batches (the transform's stride is the batch count): not.
  EXPECT_FALSE(shares_apart(1, 0, 1023 * 16));
  // Walking backwards.
  EXPECT_TRUE(shares_apart(-1024, 0, 1023));
  EXPECT_FALSE(shares_apart(-1000, 0, 1023));
  // Gaps between iterations are fine; a zero stride never is.
  EXPECT_TRUE(shares_apart(2048, 0, 1023));
  EXPECT_FALSE(shares_apart(0, 0, 0));
  // One element too many overlaps.
  EXPECT_FALSE(shares_apart(1024, 0, 1024));
}

}  // namespace
}  // namespace gpufftw::engine
