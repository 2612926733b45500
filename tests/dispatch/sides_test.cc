// Where a choice between gpufftw's side and the real FFTW's starts
// (dispatch/sides.h), shared by the serial planner and the MPI layer:
// every combination of the sides applying, a stored choice and
// FFTW_WISDOM_ONLY, with the store's recall a stand-in that counts its
// calls.
#include "dispatch/sides.h"

#include <gtest/gtest.h>

namespace gpufftw {
namespace {

struct Store {
  bool holds = false;
  int asked = 0;
  std::function<bool()> recall() {
    return [this] {
      ++asked;
      return holds;
    };
  }
};

TEST(Sides, ASideThatDoesNotApplyLeavesTheOtherUnweighedAndReadsNoStore) {
  for (bool holds : {false, true})
    for (bool wisdom_only : {false, true}) {
      Store s{holds};
      EXPECT_EQ(sides_start(false, true, wisdom_only, s.recall()), SidesStart::Theirs);
      EXPECT_EQ(sides_start(false, false, wisdom_only, s.recall()), SidesStart::Theirs);
      EXPECT_EQ(sides_start(true, false, wisdom_only, s.recall()), SidesStart::Ours);
      EXPECT_EQ(s.asked, 0);
    }
}

TEST(Sides, BothApplyingTheStoredChoiceComesFirstUnderEveryFlag) {
  for (bool wisdom_only : {false, true}) {
    Store s{true};
    EXPECT_EQ(sides_start(true, true, wisdom_only, s.recall()), SidesStart::Recalled);
    EXPECT_EQ(s.asked, 1);
  }
}

TEST(Sides, WithoutAStoredChoiceWisdomOnlyLeavesItToTheRealFftwsWisdom) {
  Store s;
  EXPECT_EQ(sides_start(true, true, true, s.recall()), SidesStart::TheirWisdom);
  EXPECT_EQ(sides_start(true, true, false, s.recall()), SidesStart::Weigh);
  EXPECT_EQ(s.asked, 2);
}

}  // namespace
}  // namespace gpufftw
