// FFTW_MEASURE's steps against the real FFTW (dispatch/measure_steps.h),
// shared by the serial planner and the MPI layer, on stand-in plans: each
// reading scripted, a clock that each reading moves on, and the order in
// which the steps ask for them written down.
#include "dispatch/measure_steps.h"

#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

namespace gpufftw {
namespace {

// The real FFTW's two plans as the steps see them: what each reads (nullopt:
// no plan), a deadline `limit` after the start (negative: none), a clock
// that each reading moves on by what it read.
struct StandIn {
  StandIn(std::optional<double> e, std::optional<double> m, double limit_s = -1)
      : estimated(e), measured(m), limit(limit_s) {}
  std::optional<double> estimated, measured;
  double limit, clock = 0;
  std::vector<std::string> asked;
  double loses_at = 0;

  RealSideHands hands() {
    RealSideHands h;
    h.estimated = [this](double at) {
      asked.push_back("estimated");
      loses_at = at;
      if (estimated) clock += *estimated;
      return estimated;
    };
    h.left = [this] { return limit < 0 ? HUGE_VAL : std::max(0.0, limit - clock); };
    h.measured = [this] {
      asked.push_back("measured");
      if (measured) clock += *measured;
      return measured;
    };
    return h;
  }
};

using Asked = std::vector<std::string>;

TEST(MeasureSteps, TheModelsSureVerdictLeavesTheRealSideUntimedAndIsStored) {
  StandIn real{2.0, 1.0};
  // Priced above kSureRatio times ours: not a plan of it made.
  const MeasureSteps s = measure_steps(1.0, kSureRatio * 1.01, kEstimateLosesBy, real.hands());
  EXPECT_EQ(s.end, MeasureEnd::Untimed);
  EXPECT_EQ(s.kept, Kept::Ours);
  EXPECT_TRUE(s.store);
  EXPECT_EQ(real.asked, Asked{});
}

TEST(MeasureSteps, ARunPricedPastTheLimitIsNotStartedNorStored) {
  // Priced slower, not surely, but its one run alone would pass what the
  // limit leaves.
  StandIn real{2.0, 1.5, 1.5};
  const MeasureSteps s = measure_steps(1.0, 2.0, kEstimateLosesBy, real.hands());
  EXPECT_EQ(s.end, MeasureEnd::Untimed);
  EXPECT_FALSE(s.store);
  EXPECT_EQ(real.asked, Asked{});
  // With the time for it, it is read.
  StandIn more{2.0, 1.5, 10};
  EXPECT_NE(measure_steps(1.0, 2.0, kEstimateLosesBy, more.hands()).end, MeasureEnd::Untimed);
}

TEST(MeasureSteps, APriceBelowOursOrNoneIsNoVerdict) {
  // The price is low, never high: one below ours says nothing, nor does a
  // missing one, and a caller that judged before reading passes none.
  for (std::optional<double> price : {std::optional<double>(0.1), std::optional<double>(-1), std::optional<double>()}) {
    StandIn real{0.5, 0.4};
    const MeasureSteps s = measure_steps(1.0, price, kEstimateLosesBy, real.hands());
    EXPECT_EQ(s.end, MeasureEnd::Read);
    EXPECT_EQ(real.asked, (Asked{"estimated", "measured"}));
  }
}

TEST(MeasureSteps, TheCheapPlanIsReadFirstAndTheFastestKept) {
  StandIn real{1.5, 0.6};
  const MeasureSteps s = measure_steps(1.0, std::nullopt, kEstimateLosesBy, real.hands());
  EXPECT_EQ(real.asked, (Asked{"estimated", "measured"}));
  EXPECT_EQ(s.end, MeasureEnd::Read);
  EXPECT_EQ(s.kept, Kept::Measured);
  EXPECT_TRUE(s.store);
  EXPECT_EQ(s.estimated_read, 1.5);
  EXPECT_EQ(s.measured_read, 0.6);
  // The estimated plan faster than both.
  StandIn quick{0.5, 0.8};
  EXPECT_EQ(measure_steps(1.0, std::nullopt, kEstimateLosesBy, quick.hands()).kept, Kept::Estimated);
  // Neither beats ours; ties go to ours, then to the measured plan.
  StandIn slower{1.2, 1.1};
  EXPECT_EQ(measure_steps(1.0, std::nullopt, kEstimateLosesBy, slower.hands()).kept, Kept::Ours);
  StandIn tie{1.0, 1.0};
  EXPECT_EQ(measure_steps(1.0, std::nullopt, kEstimateLosesBy, tie.hands()).kept, Kept::Ours);
  StandIn both{0.5, 0.5};
  EXPECT_EQ(measure_steps(1.0, std::nullopt, kEstimateLosesBy, both.hands()).kept, Kept::Measured);
}

TEST(MeasureSteps, AnEstimatedPlanPastTheCutLeavesTheMeasuredOneUnmade) {
  StandIn real{kEstimateLosesBy * 1.01, 0.1};
  const MeasureSteps s = measure_steps(1.0, std::nullopt, kEstimateLosesBy, real.hands());
  EXPECT_DOUBLE_EQ(real.loses_at, kEstimateLosesBy);
  EXPECT_EQ(s.end, MeasureEnd::Cut);
  EXPECT_EQ(s.kept, Kept::Ours);
  EXPECT_TRUE(s.store);
  EXPECT_EQ(real.asked, Asked{"estimated"});
  // At the cut, not past it: measured.
  StandIn at{kNearEstimateLosesBy, 0.1};
  EXPECT_EQ(measure_steps(1.0, std::nullopt, kNearEstimateLosesBy, at.hands()).end, MeasureEnd::Read);
}

TEST(MeasureSteps, AMissingEstimatedPlanGoesOnOrLosesAsTheCallerSays) {
  // None: the measured plan is made all the same.
  StandIn none{std::nullopt, 0.5};
  const MeasureSteps s = measure_steps(1.0, std::nullopt, kEstimateLosesBy, none.hands());
  EXPECT_EQ(s.end, MeasureEnd::Read);
  EXPECT_EQ(s.kept, Kept::Measured);
  // One that never ends (a plan some rank lacks): past the cut.
  StandIn never{HUGE_VAL, 0.5};
  EXPECT_EQ(measure_steps(1.0, std::nullopt, kEstimateLosesBy, never.hands()).end, MeasureEnd::Cut);
}

TEST(MeasureSteps, PastTheDeadlineTheBestSoFarIsKeptNotStored) {
  // The estimated plan's reading spends what the limit left.
  StandIn real{0.8, 0.1, 0.5};
  const MeasureSteps s = measure_steps(1.0, std::nullopt, kEstimateLosesBy, real.hands());
  EXPECT_EQ(s.end, MeasureEnd::LimitPassed);
  EXPECT_EQ(s.kept, Kept::Estimated);
  EXPECT_FALSE(s.store);
  EXPECT_EQ(real.asked, Asked{"estimated"});
  StandIn slower{1.2, 0.1, 0.5};
  const MeasureSteps t = measure_steps(1.0, std::nullopt, kEstimateLosesBy, slower.hands());
  EXPECT_EQ(t.kept, Kept::Ours);
  EXPECT_FALSE(t.store);
  // Ties: ours.
  StandIn tie{1.0, 0.1, 0.5};
  EXPECT_EQ(measure_steps(1.0, std::nullopt, kEstimateLosesBy, tie.hands()).kept, Kept::Ours);
}

TEST(MeasureSteps, NoMeasuredPlanKeepsOursUnstored) {
  StandIn real{0.5, std::nullopt};
  const MeasureSteps s = measure_steps(1.0, std::nullopt, kEstimateLosesBy, real.hands());
  EXPECT_EQ(s.end, MeasureEnd::NoMeasured);
  EXPECT_EQ(s.kept, Kept::Ours);
  EXPECT_FALSE(s.store);
}

TEST(MeasureSteps, TheSameAnswersTakeTheSameSteps) {
  // Every rank of an MPI plan runs the steps on the same answers (reduced
  // readings, one price, the least time left): the steps asked and the
  // choice must follow from them alone.
  for (double limit : {-1.0, 0.5, 3.0}) {
    StandIn a{0.8, 0.6, limit}, b{0.8, 0.6, limit};
    const MeasureSteps x = measure_steps(1.0, 1.5, kEstimateLosesBy, a.hands());
    const MeasureSteps y = measure_steps(1.0, 1.5, kEstimateLosesBy, b.hands());
    EXPECT_EQ(a.asked, b.asked);
    EXPECT_EQ(x.end, y.end);
    EXPECT_EQ(x.kept, y.kept);
    EXPECT_EQ(x.store, y.store);
  }
}

}  // namespace
}  // namespace gpufftw
