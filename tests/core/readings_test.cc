// The one reading rule every level times with (core/readings.h), and the
// deadline the program's time limit sets (core/time_limit.h), against
// samples the test scripts.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <thread>
#include <vector>

#include "core/readings.h"
#include "core/time_limit.h"

namespace gpufftw {
namespace {

// Hands out `runs` in order; counts what it was asked for.
struct Script {
  std::vector<double> runs;
  size_t asked = 0;
  Sample sample() {
    return [this] { return runs.at(asked++); };
  }
};

TEST(Readings, TheMedianAfterAWarmUpThatDoesNotCount) {
  Script s{{9.0, 3.0, 1.0, 2.0, 5.0, 4.0}};
  EXPECT_EQ(read_runs(s.sample(), ReadingRule{}), 3.0);
  EXPECT_EQ(s.asked, 6u);
}

TEST(Readings, SamplesUntilEnoughTimeWasSpent) {
  Script s{{1.0, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.2, 0.3}};
  ReadingRule rule;
  rule.least_spent_s = 0.6;
  EXPECT_EQ(read_runs(s.sample(), rule), 0.1);
  EXPECT_EQ(s.asked, 7u);
}

TEST(Readings, ALongRunIsTheReadingAlone) {
  Script s{{1.0, 0.2, 0.9, 0.1}};
  ReadingRule rule;
  rule.one_is_enough_s = 0.5;
  EXPECT_EQ(read_runs(s.sample(), rule), 0.9);
  EXPECT_EQ(s.asked, 3u);
}

TEST(Readings, GivesUpOnARivalAlreadyBeaten) {
  Script s{{0.8, 0.7, 0.1, 0.1, 0.1, 0.1}};
  ReadingRule rule;
  rule.give_up_s = 0.5;
  EXPECT_EQ(read_runs(s.sample(), rule), 0.7);
  EXPECT_EQ(s.asked, 2u);
}

TEST(Readings, TheLeastOfTwoForACollectivePlan) {
  Script s{{5.0, 2.0, 1.5}};
  ReadingRule rule;
  rule.keep = ReadingRule::Keep::Least;
  rule.least_samples = rule.most_samples = 2;
  EXPECT_EQ(read_runs(s.sample(), rule), 1.5);
  EXPECT_EQ(s.asked, 3u);
}

TEST(Readings, OneRunAloneWithoutAWarmUp) {
  Script s{{4.0, 1.0}};
  ReadingRule rule;
  rule.warm_up = false;
  rule.least_samples = rule.most_samples = 1;
  EXPECT_EQ(read_runs(s.sample(), rule), 4.0);
  EXPECT_EQ(s.asked, 1u);
}

TEST(Readings, AFailedRunFailsTheReading) {
  Script s{{1.0, 1.0, -1.0, 1.0}};
  EXPECT_LT(read_runs(s.sample(), ReadingRule{}), 0);
  EXPECT_EQ(s.asked, 3u);
}

TEST(TimeLimit, KeptPerPrecisionAndNoneByDefault) {
  EXPECT_LT(time_limit(Precision::F64), 0);
  set_time_limit(Precision::F32, 2.5);
  EXPECT_EQ(time_limit(Precision::F32), 2.5);
  EXPECT_LT(time_limit(Precision::F64), 0);
  EXPECT_TRUE(Deadline::of(Precision::F32).bounded());
  EXPECT_FALSE(Deadline::of(Precision::F64).bounded());
  set_time_limit(Precision::F32, -1);
}

TEST(TimeLimit, ADeadlineCountsFromItsMaking) {
  const Deadline none(-1);
  EXPECT_FALSE(none.bounded());
  EXPECT_FALSE(none.passed());
  EXPECT_EQ(none.left(), HUGE_VAL);

  const Deadline some(100);
  EXPECT_TRUE(some.bounded());
  EXPECT_FALSE(some.passed());
  EXPECT_GT(some.left(), 99);
  EXPECT_LE(some.left(), 100);

  const Deadline zero(0);
  EXPECT_TRUE(zero.passed());
  EXPECT_EQ(zero.left(), 0);
}

// The plan being made on this thread has one deadline, which the timings
// deep inside its making read; outside any plan, none bounds them.
TEST(TimeLimit, ThePlanBeingMadeHasOneDeadlineNestedPlansRestoreTheOuter) {
  EXPECT_FALSE(plan_deadline().bounded()) << "no plan is being made";
  {
    const PlanDeadline outer(Deadline(100));
    EXPECT_TRUE(plan_deadline().bounded());
    EXPECT_GT(plan_deadline().left(), 99);
    {
      const PlanDeadline inner(Deadline(0));
      EXPECT_TRUE(plan_deadline().passed());
    }
    EXPECT_FALSE(plan_deadline().passed()) << "the outer plan's again";
    EXPECT_GT(plan_deadline().left(), 99);
  }
  EXPECT_FALSE(plan_deadline().bounded());
}

// A plan made inside another's making (a serial plan of an MPI plan) keeps
// to what the outer plan leaves where that ends first, and to the
// program's limit where that does.
TEST(TimeLimit, APlanInsideAnotherKeepsToTheTighterOfBoth) {
  {
    const PlanDeadline outer(Deadline(5));
    const Deadline unlimited = Deadline::of(Precision::F64);
    EXPECT_TRUE(unlimited.bounded()) << "no program limit: the outer plan's";
    EXPECT_LE(unlimited.left(), 5);
    EXPECT_GT(unlimited.left(), 4);
    set_time_limit(Precision::F64, 100);
    EXPECT_LE(Deadline::of(Precision::F64).left(), 5) << "the outer plan's ends first";
    set_time_limit(Precision::F64, 2);
    EXPECT_LE(Deadline::of(Precision::F64).left(), 2) << "the program's limit ends first";
    EXPECT_GT(Deadline::of(Precision::F64).left(), 1);
    const PlanDeadline passed(Deadline(0));
    EXPECT_TRUE(Deadline::of(Precision::F64).passed()) << "nothing left of the enclosing plan's";
  }
  EXPECT_GT(Deadline::of(Precision::F64).left(), 1) << "outside any plan, the program's alone";
  set_time_limit(Precision::F64, -1);
}

// Work outside the plan (the calibration a first plan starts) keeps to no
// deadline while it runs, and its time is given back to every plan being
// made: the inner and the outer plan end as late as the work took.
TEST(TimeLimit, WorkOutsideThePlanKeepsToNoDeadlineAndCostsThePlansNothing) {
  // Margins of half a second: a loaded host may stall the test between
  // its steps.
  const PlanDeadline outer(Deadline(2));
  {
    const PlanDeadline inner(Deadline(1));
    {
      const OutsideThePlan calibration;
      EXPECT_FALSE(plan_deadline().bounded()) << "what the calibration times keeps to no plan's limit";
      std::this_thread::sleep_for(std::chrono::milliseconds(1200));
    }
    ASSERT_TRUE(plan_deadline().bounded()) << "the plan's deadline is current again";
    EXPECT_FALSE(plan_deadline().passed()) << "the calibration's 1.2 s are not the plan's";
    EXPECT_GT(plan_deadline().left(), 0.5);
    EXPECT_LE(plan_deadline().left(), 1);
  }
  EXPECT_GT(plan_deadline().left(), 1.5) << "nor the outer plan's";
  std::this_thread::sleep_for(std::chrono::milliseconds(2100));
  EXPECT_TRUE(plan_deadline().passed()) << "the plan's own time still counts";
}

}  // namespace
}  // namespace gpufftw
