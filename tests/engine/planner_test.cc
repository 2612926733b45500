// The engine's planner (engine/plan/planner.h) over a table of stand-in
// solvers, on the CPU: of those that take a geometry the cheapest is made
// (the table's order only between equal prices), a failed make goes on to
// the next cheapest unless its reason is Final, the solvers see why the
// others declined or made no job (its code and its words, by what the
// solver gives), Geometry::spread picks the set, one GPU, or either, and
// the prices are read by the rates the planner is given; what it would
// make a job with it offers, priced, and a solver the geometry names is
// made first.
#include "engine/plan/planner.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "fake_job.h"

namespace gpufftw::engine {
namespace {

// What the stand-ins were asked, and how they answer.
std::vector<std::string> asked;
bool split_takes = false;
std::string share_path;  // what the split's make got from the one-GPU planner

bool always(const Geometry &, const std::vector<int> &, Reason *) { return true; }

// Each stand-in's price in seconds of link (SetUp sets them in the table's
// order; a test may change them).
std::map<std::string, double> seconds;
template <const char *kName>
Price priced(const Geometry &, const std::vector<int> &) {
  return {seconds.at(kName) * Rates{}.link, 0};
}
constexpr char kSplit[] = "split", kHalf[] = "half", kOverCap[] = "over cap", kInCore[] = "in core",
               kFallback[] = "fallback";

bool split_suits(const Geometry &, const std::vector<int> &set, Reason *why_not) {
  if (set.size() < 2) return decline(why_not, Reason::Code::NotItsKind, "one GPU in the set");
  return true;
}
std::unique_ptr<FftJob> split_make(const Geometry &g, const Ask &ask, Reason *why) {
  asked.push_back("split");
  if (!split_takes) return *why = {Reason::Code::NoJob, "too small"}, nullptr;
  std::string part_why;
  std::unique_ptr<FftJob> part = ask.one_gpu(g, &part_why);
  share_path = part ? part->path() : part_why;
  auto job = std::make_unique<FakeJob>("split");
  job->placement = "GPUs of the set";
  return job;
}

bool half_suits(const Geometry &g, const std::vector<int> &, Reason *why_not) {
  if (g.half) return true;
  return decline(why_not, Reason::Code::NotAsked, "single precision asked for");
}
std::unique_ptr<FftJob> half_make(const Geometry &, const Ask &, Reason *why) {
  asked.push_back("half");
  return *why = {Reason::Code::NotItsKind, "not dense"}, nullptr;
}

// A transform of n 1000 or more "passes the cap"; its make always fails,
// and no solver after it could do better (Final); n 500 to 999 fails too,
// leaving the others to try.
bool over_cap_suits(const Geometry &g, const std::vector<int> &, Reason *why_not) {
  if (g.dims[0].n >= 500) return true;
  return decline(why_not, Reason::Code::NotItsKind, "fits");
}
std::unique_ptr<FftJob> over_cap_make(const Geometry &g, const Ask &, Reason *why) {
  asked.push_back("over cap");
  return *why = {g.dims[0].n >= 1000 ? Reason::Code::Final : Reason::Code::NoJob, "no chunk fits"}, nullptr;
}

// n = 7 and 11 "cannot be planned" in core, nor any n where a test says
// so; the fallback takes only 7.
bool in_core_fails = false;
// Where half precision was asked, the path says why the half solver did not
// take it, and the code it gave.
std::unique_ptr<FftJob> in_core_make(const Geometry &g, const Ask &ask, Reason *why) {
  asked.push_back("in core");
  if (in_core_fails || g.dims[0].n == 7 || g.dims[0].n == 11)
    return *why = {Reason::Code::NoJob, "cannot plan"}, nullptr;
  const Reason *half = ask.declined(Gives::Half);
  if (!g.half || !half) return std::make_unique<FakeJob>("in core");
  const bool shape = half->code == Reason::Code::NotItsKind;
  return std::make_unique<FakeJob>("in core (half not taken: " + half->text + (shape ? ", its shape)" : ")"));
}
bool fallback_suits(const Geometry &g, const std::vector<int> &, Reason *why_not) {
  if (g.dims[0].n == 7) return true;
  return decline(why_not, Reason::Code::NotItsKind, "not 7");
}
std::unique_ptr<FftJob> fallback_make(const Geometry &, const Ask &, Reason *) {
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
    in_core_fails = false;
    seconds = {{kSplit, 1}, {kHalf, 1}, {kOverCap, 1}, {kInCore, 2}, {kFallback, 3}};
  }
  Geometry geometry(long long n, Spread spread = Spread::Auto) {
    Geometry g;
    g.dims = {{n, 1, 1}};
    g.spread = spread;
    return g;
  }
  Planner planner{{{kSplit, true, Gives::Transform, split_suits, priced<kSplit>, split_make},
                   {kHalf, false, Gives::Half, half_suits, priced<kHalf>, half_make},
                   {kOverCap, false, Gives::Transform, over_cap_suits, priced<kOverCap>, over_cap_make},
                   {kInCore, false, Gives::Transform, always, priced<kInCore>, in_core_make},
                   {kFallback, false, Gives::Transform, fallback_suits, priced<kFallback>, fallback_make, true}},
                  [](std::string *not_ready) { return ready || (*not_ready = "the plan fault", false); },
                  [] { return Rates{}; }};
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
  EXPECT_EQ(job->path(), "in core (half not taken: not dense, its shape)");
  EXPECT_EQ(asked, (std::vector<std::string>{"half", "in core"}));
}

TEST_F(PlannerTest, AFailedMakeGoesOnToTheNextThatSuits) {
  auto job = planner.make(geometry(7), {0}, 0, &why);
  ASSERT_TRUE(job) << why;
  EXPECT_EQ(job->path(), "fallback");
  EXPECT_EQ(asked, (std::vector<std::string>{"in core", "fallback"}));
}

// After why the makes failed, why those that do not take the geometry's
// kind did not help: not the half solver's, which was not asked for.
TEST_F(PlannerTest, AFailedMakeSaysWhyThoseOfOtherKindsDidNotHelp) {
  EXPECT_FALSE(planner.make(geometry(11), {0}, 0, &why));
  EXPECT_EQ(why, "cannot plan; fits; not 7");
  EXPECT_EQ(asked, (std::vector<std::string>{"in core"}));
}

TEST_F(PlannerTest, AFinalReasonEndsTheSearch) {
  EXPECT_FALSE(planner.make(geometry(4096), {0}, 0, &why));
  EXPECT_EQ(why, "no chunk fits");
  EXPECT_EQ(asked, (std::vector<std::string>{"over cap"}));
}

TEST_F(PlannerTest, AReasonNotFinalGoesOn) {
  auto job = planner.make(geometry(600), {0}, 0, &why);
  ASSERT_TRUE(job) << why;
  EXPECT_EQ(job->path(), "in core");
  EXPECT_EQ(asked, (std::vector<std::string>{"over cap", "in core"}));
}

TEST_F(PlannerTest, NothingOnOneGpuWhereItIsNotReady) {
  ready = false;
  EXPECT_FALSE(planner.make(geometry(64), {0, 1}, 0, &why));
  EXPECT_EQ(why, "the plan fault");
  EXPECT_EQ(asked, (std::vector<std::string>{"split"}));
}

// The cheapest that takes the geometry is made, wherever the table lists
// it: here the fallback, listed last, priced below in core.
TEST_F(PlannerTest, TheCheapestIsMade) {
  seconds[kFallback] = 0.5;
  auto job = planner.make(geometry(7), {0}, 0, &why);
  ASSERT_TRUE(job) << why;
  EXPECT_EQ(job->path(), "fallback");
  EXPECT_EQ(asked, (std::vector<std::string>{"fallback"}));
}

// Where the cheapest makes no job, the next cheapest is made, whatever
// the table's order: n 600 suits over cap and in core, listed in that
// order and priced the other way.
TEST_F(PlannerTest, AFailedMakeGoesOnToTheNextCheapest) {
  seconds[kOverCap] = 5;
  in_core_fails = true;
  EXPECT_FALSE(planner.make(geometry(600), {0}, 0, &why));
  EXPECT_EQ(asked, (std::vector<std::string>{"in core", "over cap"}));
  EXPECT_EQ(why, "cannot plan; no chunk fits; not 7");
}

// A Final reason ends the search even where a dearer solver would have
// made a job; priced above them, the same solver is reached last.
TEST_F(PlannerTest, AFinalReasonEndsTheSearchWhereverItIsPriced) {
  EXPECT_FALSE(planner.make(geometry(4096), {0}, 0, &why));
  EXPECT_EQ(asked, (std::vector<std::string>{"over cap"}));
  seconds[kOverCap] = 5;
  asked.clear();
  auto job = planner.make(geometry(4096), {0}, 0, &why);
  ASSERT_TRUE(job) << why;
  EXPECT_EQ(job->path(), "in core");
  EXPECT_EQ(asked, (std::vector<std::string>{"in core"}));
}

// Equal prices keep the table's order.
TEST_F(PlannerTest, EqualPricesKeepTheTablesOrder) {
  seconds[kFallback] = 2;
  ASSERT_TRUE(planner.make(geometry(7), {0}, 0, &why));
  EXPECT_EQ(asked, (std::vector<std::string>{"in core", "fallback"}));
}

// What make() would ask, priced at the rates given, cheapest first: at
// One the one-GPU solvers that take g, at Set the spreading ones, at Auto
// the spreading ones where one takes g.
TEST_F(PlannerTest, OffersAreTheTakersPricedCheapestFirst) {
  seconds[kFallback] = 0.5;
  const std::vector<Offer> one = planner.offers(geometry(7, Spread::One), {0, 1});
  ASSERT_EQ(one.size(), 2u);
  EXPECT_STREQ(one[0].solver, kFallback);
  EXPECT_DOUBLE_EQ(one[0].seconds, 0.5);
  EXPECT_TRUE(one[0].fallback) << "the solver's own word";
  EXPECT_STREQ(one[1].solver, kInCore);
  EXPECT_DOUBLE_EQ(one[1].seconds, 2);
  EXPECT_FALSE(one[1].fallback);
  const std::vector<Offer> set = planner.offers(geometry(7, Spread::Set), {0, 1});
  ASSERT_EQ(set.size(), 1u);
  EXPECT_STREQ(set[0].solver, kSplit);
  ASSERT_EQ(planner.offers(geometry(7), {0, 1}).size(), 1u);
  EXPECT_STREQ(planner.offers(geometry(7), {0, 1})[0].solver, kSplit);
  EXPECT_EQ(planner.offers(geometry(7), {0}).size(), 2u) << "no split on one GPU: the one-GPU solvers";
  EXPECT_TRUE(planner.offers(geometry(7, Spread::Set), {0}).empty());
  EXPECT_TRUE(asked.empty()) << "offering makes nothing";
}

// A job says which solver made it.
TEST_F(PlannerTest, AJobNamesItsSolver) {
  auto job = planner.make(geometry(7), {0}, 0, &why);
  ASSERT_TRUE(job) << why;
  EXPECT_EQ(job->solver, kFallback);
}

// The solver the geometry names is made first, though dearer: n 600
// suits over cap (priced 1, and making no job) and in core (priced 2).
// A name that does not take the geometry is passed over.
TEST_F(PlannerTest, TheNamedSolverIsMadeFirst) {
  Geometry g = geometry(600);
  g.solver = kInCore;
  auto job = planner.make(g, {0}, 0, &why);
  ASSERT_TRUE(job) << why;
  EXPECT_EQ(job->solver, kInCore);
  EXPECT_EQ(asked, (std::vector<std::string>{"in core"}));
  asked.clear();
  g.solver = kFallback;  // takes n 7 only
  ASSERT_TRUE(planner.make(g, {0}, 0, &why)) << why;
  EXPECT_EQ(asked, (std::vector<std::string>{"over cap", "in core"}));
}

// Where the named solver makes no job, the others, cheapest first: n 7
// "cannot be planned" in core; of over cap (n 600 only) and the fallback,
// the fallback takes it.
TEST_F(PlannerTest, ANamedSolverThatMakesNoJobGoesOnCheapestFirst) {
  seconds[kFallback] = 0.5;
  Geometry g = geometry(7);
  g.solver = kInCore;
  auto job = planner.make(g, {0}, 0, &why);
  ASSERT_TRUE(job) << why;
  EXPECT_EQ(job->path(), "fallback");
  EXPECT_EQ(job->solver, kFallback);
  EXPECT_EQ(asked, (std::vector<std::string>{"in core", "fallback"}));
}

// A named solver that fails with a Final reason ends the search, as it
// does unnamed.
TEST_F(PlannerTest, ANamedSolverThatFailsFinalEndsTheSearch) {
  seconds[kOverCap] = 5;
  Geometry g = geometry(4096);
  g.solver = kOverCap;
  EXPECT_FALSE(planner.make(g, {0}, 0, &why));
  EXPECT_EQ(why, "no chunk fits");
  EXPECT_EQ(asked, (std::vector<std::string>{"over cap"}));
}

// Two solvers whose prices differ in kind: one moves its bytes over the
// host link, the other in device memory and from a peer. At the nominal
// rates the link's second is dearer than the device's and peer's
// together; on a machine whose link measured slower, the other way round.
constexpr double kLinkSeconds = 1.0;
Price over_link(const Geometry &, const std::vector<int> &) { return {kLinkSeconds * Rates{}.link, 0, 0}; }
Price on_device(const Geometry &, const std::vector<int> &) {
  return {0, 0.5 * Rates{}.device, 0.7 * Rates{}.peer};  // 1.2 s at the nominal rates
}
template <const char *kName>
std::unique_ptr<FftJob> made_as(const Geometry &, const Ask &, Reason *) {
  return std::make_unique<FakeJob>(kName);
}
constexpr char kOverLink[] = "over the link", kOnDevice[] = "on the device";

TEST(PlannerRates, TheOrderFollowsTheRatesGiven) {
  Rates given;
  const Planner planner({{kOverLink, false, Gives::Transform, always, over_link, made_as<kOverLink>},
                         {kOnDevice, false, Gives::Transform, always, on_device, made_as<kOnDevice>}},
                        [](std::string *) { return true; }, [&given] { return given; });
  Geometry g;
  g.dims = {{64, 1, 1}};
  std::string why;
  auto job = planner.make(g, {0}, 0, &why);
  ASSERT_TRUE(job) << why;
  EXPECT_EQ(job->path(), kOverLink);
  // A link of 10 GB/s: its second becomes 2.5, against the other's 1.2.
  // Read at each search, not when the planner was made.
  given.link = 10e9;
  job = planner.make(g, {0}, 0, &why);
  ASSERT_TRUE(job) << why;
  EXPECT_EQ(job->path(), kOnDevice);
  // A peer of 100 GB/s as well: 0.5 + 2.1 s on the device's side, over 2.5.
  given.peer = 100e9;
  job = planner.make(g, {0}, 0, &why);
  ASSERT_TRUE(job) << why;
  EXPECT_EQ(job->path(), kOverLink);
}

}  // namespace
}  // namespace gpufftw::engine
