// The one reading rule every level times with (core/readings.h), and the
// deadline the program's time limit sets (core/time_limit.h), against
// samples the test scripts.
#include <gtest/gtest.h>

#include <cmath>
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

}  // namespace
}  // namespace gpufftw
