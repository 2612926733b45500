// The engine's planner (engine/plan/planner.h) over a table of stand-in
// solvers, on the CPU: solvers are asked in the table's order, a failed
// make goes on to the next unless the solver is the last where it suits,
// the one-GPU solvers see why those before them declined, and
// Geometry::spread picks the set, one GPU, or either.
#include "engine/plan/planner.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace gpufftw::engine {
namespace {

class FakeJob final : public FftJob {
 public:
  explicit FakeJob(std::string path) : path_(std::move(path)) {}
  bool run(void *const[2], void *const[2], std::string *) override { return true; }
  std::string path() const override { return path_; }

 private:
  std::string path_;
};

// What the stand-ins were asked, and how they answer.
std::vector<std::string> asked;
bool split_takes = false;
std::string share_path;  // what the split's make got from the one-GPU planner

bool always(const Geometry &, const std::vector<int> &, std::string *) { return true; }

bool split_suits(const Geometry &, const std::vector<int> &set, std::string *why_not) {
  if (set.size() < 2) return *why_not = "one GPU in the set", false;
  return true;
}
std::unique_ptr<FftJob> split_make(const Geometry &g, const Ask &ask, std::string *why) {
  asked.push_back("split");
  if (!split_takes) return *why = "too small", nullptr;
  std::string part_why;
  std::unique_ptr<FftJob> part = ask.one_gpu(g, &part_why);
  share_path = part ? part->path() : part_why;
  auto job = std::make_unique<FakeJob>("split");
  job->placement = "GPUs of the set";
  return job;
}

bool half_suits(const Geometry &g, const std::vector<int> &, std::string *why_not) {
  if (g.half) return true;
  return *why_not = "single precision asked for", false;
}
std::unique_ptr<FftJob> half_make(const Geometry &, const Ask &, std::string *why) {
  asked.push_back("half");
  return *why = "not dense", nullptr;
}

// A transform of n 1000 or more "passes the cap"; its make always fails.
bool over_cap_suits(const Geometry &g, const std::vector<int> &, std::string *why_not) {
  if (g.dims[0].n >= 1000) return true;
  return *why_not = "fits", false;
}
std::unique_ptr<FftJob> over_cap_make(const Geometry &, const Ask &, std::string *why) {
  asked.push_back("over cap");
  return *why = "no chunk fits", nullptr;
}

// n = 7 and 11 "cannot be planned" in core; the fallback takes only 7.
std::unique_ptr<FftJob> in_core_make(const Geometry &g, const Ask &ask, std::string *why) {
  asked.push_back("in core");
  if (g.dims[0].n == 7 || g.dims[0].n == 11) return *why = "cannot plan", nullptr;
  return std::make_unique<FakeJob>("in core" + (g.half ? " (half not taken: " + ask.why_not("half") + ")" : ""));
}
bool fallback_suits(const Geometry &g, const std::vector<int> &, std::string *why_not) {
  if (g.dims[0].n == 7) return true;
  return *why_not = "not 7", false;
}
std::unique_ptr<FftJob> fallback_make(const Geometry &, const Ask &, std::string *) {
  asked.push_back("fallback");
  return std::make_unique<FakeJob>("fallback");
}

bool ready = true;

class PlannerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    asked.clear();
    split_takes = false;
    share_path.clear();
    ready = true;
  }
  Geometry geometry(long long n, Spread spread = Spread::Auto) {
    Geometry g;
    g.dims = {{n, 1, 1}};
    g.spread = spread;
    return g;
  }
  Planner planner{{{"split", true, false, split_suits, split_make},
                   {"half", false, false, half_suits, half_make},
                   {"over cap", false, true, over_cap_suits, over_cap_make},
                   {"in core", false, false, always, in_core_make},
                   {"fallback", false, false, fallback_suits, fallback_make}},
                  [](std::string *not_ready) { return ready || (*not_ready = "the plan fault", false); }};
  std::string why;
};

TEST_F(PlannerTest, AutoSpreadsWhereTheSplitMakesAJob) {
  split_takes = true;
  auto job = planner.make(geometry(64), {0, 1}, 0, &why);
  ASSERT_TRUE(job) << why;
  EXPECT_EQ(job->path(), "split");
  EXPECT_EQ(job->placement, "GPUs of the set");
  // Its share came from the one-GPU search, handed down by the planner.
  EXPECT_EQ(share_path, "in core");
}

TEST_F(PlannerTest, AutoRunsOnOneGpuSayingWhyNotSplit) {
  auto job = planner.make(geometry(64), {0, 1}, 0, &why);
  ASSERT_TRUE(job) << why;
  EXPECT_EQ(job->path(), "in core");
  EXPECT_EQ(job->placement, "GPU 0 of 0,1 (not split: too small)");
  EXPECT_EQ(asked, (std::vector<std::string>{"split", "in core"}));
}

TEST_F(PlannerTest, OneGpuInTheSetNamesOnlyIt) {
  auto job = planner.make(geometry(64), {3}, 3, &why);
  ASSERT_TRUE(job) << why;
  EXPECT_EQ(job->placement, "GPU 3");
  EXPECT_EQ(asked, (std::vector<std::string>{"in core"}));
}

TEST_F(PlannerTest, OneNeverAsksTheSplit) {
  split_takes = true;
  auto job = planner.make(geometry(64, Spread::One), {0, 1}, 0, &why);
  ASSERT_TRUE(job) << why;
  EXPECT_EQ(job->path(), "in core");
  EXPECT_EQ(job->placement, "GPU 0 of 0,1 (not split: one GPU asked for)");
  EXPECT_EQ(asked, (std::vector<std::string>{"in core"}));
}

TEST_F(PlannerTest, SetTakesOnlyTheSplit) {
  split_takes = true;
  auto job = planner.make(geometry(64, Spread::Set), {0, 1}, 0, &why);
  ASSERT_TRUE(job) << why;
  EXPECT_EQ(job->path(), "split");
}

TEST_F(PlannerTest, SetWithoutASplitIsNoJob) {
  EXPECT_FALSE(planner.make(geometry(64, Spread::Set), {0, 1}, 0, &why));
  EXPECT_EQ(why, "too small");
  EXPECT_EQ(asked, (std::vector<std::string>{"split"}));
  EXPECT_FALSE(planner.make(geometry(64, Spread::Set), {0}, 0, &why));
  EXPECT_EQ(why, "one GPU in the set");
}

TEST_F(PlannerTest, LaterSolversSeeWhyEarlierOnesDeclined) {
  Geometry g = geometry(64);
  g.half = true;
  auto job = planner.make(g, {0}, 0, &why);
  ASSERT_TRUE(job) << why;
  EXPECT_EQ(job->path(), "in core (half not taken: not dense)");
  EXPECT_EQ(asked, (std::vector<std::string>{"half", "in core"}));
}

TEST_F(PlannerTest, AFailedMakeGoesOnToTheNextThatSuits) {
  auto job = planner.make(geometry(7), {0}, 0, &why);
  ASSERT_TRUE(job) << why;
  EXPECT_EQ(job->path(), "fallback");
  EXPECT_EQ(asked, (std::vector<std::string>{"in core", "fallback"}));
}

TEST_F(PlannerTest, AFailedMakeSaysWhyThoseAfterItDidNotHelp) {
  EXPECT_FALSE(planner.make(geometry(11), {0}, 0, &why));
  EXPECT_EQ(why, "cannot plan; not 7");
  EXPECT_EQ(asked, (std::vector<std::string>{"in core"}));
}

TEST_F(PlannerTest, TheLastWhereItSuitsEndsTheSearch) {
  EXPECT_FALSE(planner.make(geometry(4096), {0}, 0, &why));
  EXPECT_EQ(why, "no chunk fits");
  EXPECT_EQ(asked, (std::vector<std::string>{"over cap"}));
}

TEST_F(PlannerTest, NothingOnOneGpuWhereItIsNotReady) {
  ready = false;
  EXPECT_FALSE(planner.make(geometry(64), {0, 1}, 0, &why));
  EXPECT_EQ(why, "the plan fault");
  EXPECT_EQ(asked, (std::vector<std::string>{"split"}));
}

}  // namespace
}  // namespace gpufftw::engine
