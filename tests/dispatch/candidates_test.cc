// The planner's list (candidates.h) and its one decision (decide.h)
// against the stand-in sides: each way's answer to "do you apply?" (a
// typed reason and its words where not), the prices that replace the
// GPU's way, and the decision as the cheapest way that applies.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/time_limit.h"
#include "dispatch/decide.h"
#include "dispatch/thread_rules.h"
#include "dispatch/why.h"
#include "policy_fixture.h"

namespace gpufftw {
namespace {

class Candidates : public Policy {
 protected:
  std::vector<Candidate> ways_of(const Problem &p, Memory in = Memory::Pageable, Memory out = Memory::Pageable) {
    return ways(planner_, p, cpu_.program_threads, in, out);
  }
  Dispatched decide_now(const Problem &p, const std::vector<Candidate> &list) {
    const PlanDeadline plan(Deadline::of(p.precision));
    return decide(planner_, p, list, choice_key(p, cpu_.program_threads, false));
  }
  Problem tiny(unsigned flags = FFTW_ESTIMATE) {
    Problem p = problem(flags);
    p.dims[0].n = 256;
    return p;
  }
};

// The real FFTW at the program's count and at one thread, then the GPU.
void expect_shape(const std::vector<Candidate> &list, int threads) {
  ASSERT_EQ(list.size(), threads > 1 ? 3u : 2u);
  EXPECT_FALSE(list[0].gpu);
  EXPECT_EQ(list[0].threads, threads);
  if (threads > 1) {
    EXPECT_EQ(list[1].threads, 1);
  }
  EXPECT_TRUE(list.back().gpu);
  EXPECT_EQ(list.back().spread, Spread::Auto);
  for (const Candidate &c : list) EXPECT_FALSE(c.price) << "nothing is priced before the store is asked";
}

// Device arrays rule out the real FFTW (it would read device memory and
// crash), however small the problem: the GPU alone applies.
TEST_F(Candidates, DeviceArraysRuleOutTheRealFftwAtEveryCount) {
  cpu_.program_threads = 4;
  for (const Problem &p : {problem(), tiny()}) {
    const std::vector<Candidate> list = ways_of(p, Memory::Pageable, Memory::Device);
    expect_shape(list, 4);
    for (int i : {0, 1}) {
      EXPECT_EQ(list[i].unfit, Unfit::DeviceArrays);
      EXPECT_EQ(list[i].why_not, "arrays in device memory");
    }
    EXPECT_TRUE(list[2].applies()) << list[2].why_not;
    EXPECT_FALSE(side_applies(list, false));
  }
  const std::vector<Candidate> managed = ways_of(problem(), Memory::Managed);
  EXPECT_EQ(managed[0].unfit, Unfit::ManagedArrays);
  EXPECT_EQ(managed[0].why_not, "arrays in managed memory");
  EXPECT_TRUE(managed[2].applies());
  EXPECT_EQ(store_, nullptr) << "asking costs no store";
}

// A tiny problem rules out the GPU, and the program's count where it
// asked for more than one thread; one thread applies.
TEST_F(Candidates, TinyRulesOutTheGpuAndThreads) {
  cpu_.program_threads = 4;
  std::vector<Candidate> list = ways_of(tiny());
  expect_shape(list, 4);
  EXPECT_EQ(list[0].unfit, Unfit::Tiny);
  EXPECT_TRUE(list[1].applies());
  EXPECT_EQ(list[2].unfit, Unfit::Tiny);
  EXPECT_EQ(list[2].why_not, "too small for the GPU or for threads to pay");

  cpu_.program_threads = 1;
  list = ways_of(tiny());
  expect_shape(list, 1);
  EXPECT_TRUE(list[0].applies());
  EXPECT_EQ(list[1].unfit, Unfit::Tiny);
  EXPECT_EQ(list[1].why_not, "too small for the GPU to pay");
  EXPECT_EQ(gpu_.plans[Spread::Auto], 0);
}

// No usable GPU rules it out in the GPU side's words, but only where the
// driver does not name the machine's GPUs: there, asking would start
// CUDA, and the calibration says so later (NoRates).
TEST_F(Candidates, NoUsableGpuRulesItOutInItsOwnWords) {
  gpu_.usable = false;
  gpu_.named = false;
  std::vector<Candidate> list = ways_of(problem());
  EXPECT_EQ(list.back().unfit, Unfit::NoGpu);
  EXPECT_EQ(list.back().why_not, "no GPU in this test");
  EXPECT_TRUE(list.front().applies());

  gpu_.named = true;
  list = ways_of(problem());
  EXPECT_TRUE(list.back().applies());
  gpu_calibrates_ = false;
  const Dispatched d = choose_now(problem());
  EXPECT_FALSE(made(d).gpu());
  EXPECT_EQ(d.why, "no GPU in this test");
}

// Priced, the GPU's way becomes the ways the model prices: one GPU and the
// set's split where it prices the set, the engine's placement where it
// prices one GPU only, and none (NotPriced) where it prices nothing.
TEST_F(Candidates, PricesReplaceTheGpuWayWithThosePriced) {
  const Problem p = problem();
  auto priced = [&] {
    std::vector<Candidate> list = ways_of(p);
    price_cpu(planner_, p, &list);
    price_gpu(planner_, p, false, gpu_rates(), &list);
    return list;
  };
  gpu_.one_s = 1e-3;
  gpu_.set_s = 2e-3;
  std::vector<Candidate> list = priced();
  ASSERT_EQ(list.size(), 3u);
  EXPECT_EQ(*list[0].price, cpu_price(p, 1));
  EXPECT_EQ(list[1].spread, Spread::One);
  EXPECT_EQ(*list[1].price, 1e-3);
  EXPECT_EQ(list[2].spread, Spread::Set);
  EXPECT_EQ(*list[2].price, 2e-3);

  gpu_.set_s.reset();
  list = priced();
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[1].spread, Spread::Auto);

  gpu_.one_s.reset();
  list = priced();
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[1].unfit, Unfit::NotPriced);
  EXPECT_EQ(list[1].why_not, "the model prices no GPU way for it");
  EXPECT_FALSE(side_applies(list, true));
}

// Under FFTW_ESTIMATE the decision is the cheapest way of the list that
// applies: the prices alone flip it, a cheaper way ruled out never wins.
// The thread rules read prices only where the real FFTW's ways carry
// them: unpriced, the program's count stands and one thread is not timed;
// with none of its ways left, a default candidate, not a crash.
TEST(ThreadRules, UnpricedWaysLeaveTheProgramsCount) {
  const std::vector<Candidate> unpriced{Candidate::cpu_at(8), Candidate::cpu_at(1), Candidate::gpu_at(Spread::Auto)};
  EXPECT_EQ(cheapest_cpu(unpriced).threads, 8);
  EXPECT_FALSE(one_thread_may_win(unpriced));

  std::vector<Candidate> none{Candidate::cpu_at(8), Candidate::gpu_at(Spread::Auto, 1e-3)};
  none[0].unfit = Unfit::DeviceArrays;
  EXPECT_FALSE(cheapest_cpu(none).price);
  EXPECT_FALSE(one_thread_may_win(none));

  const std::vector<Candidate> priced{Candidate::cpu_at(8, 1e-3), Candidate::cpu_at(1, 1e-4)};
  EXPECT_EQ(cheapest_cpu(priced).threads, 1);
  EXPECT_TRUE(one_thread_may_win(priced));
}

TEST_F(Candidates, TheDecisionIsTheCheapestWayThatApplies) {
  const Problem p = problem(FFTW_ESTIMATE);
  gpu_.splits = true;
  std::vector<Candidate> list{Candidate::cpu_at(1, 2e-3), Candidate::gpu_at(Spread::One, 1e-3),
                              Candidate::gpu_at(Spread::Set, 3e-3)};
  Dispatched d = decide_now(p, list);
  EXPECT_TRUE(made(d).gpu()) << d.why;
  EXPECT_EQ(made(d).spread(), Spread::One) << d.why;
  EXPECT_EQ(d.why.rfind("model: gpu " + ms(1e-3) + ", cpu " + ms(2e-3), 0), 0u) << d.why;

  list[2].price = 0.5e-3;
  d = decide_now(p, list);
  EXPECT_EQ(made(d).spread(), Spread::Set) << d.why;
  EXPECT_NE(d.why.find("; the GPUs' split priced " + ms(0.5e-3) + ", one GPU " + ms(1e-3)), std::string::npos)
      << d.why;

  list[0].price = 0.2e-3;
  d = decide_now(p, list);
  EXPECT_FALSE(made(d).gpu()) << d.why;

  list[0].price = 2e-3;
  list[2].unfit = Unfit::NoGpu;
  list[2].why_not = "ruled out in this test";
  d = decide_now(p, list);
  EXPECT_EQ(made(d).spread(), Spread::One) << d.why;
  EXPECT_EQ(d.why.find("split"), std::string::npos) << d.why;
  EXPECT_EQ(readings_, 0) << "FFTW_ESTIMATE times nothing";
}

// The same through the stand-in sides' prices: the GPU's price alone
// flips the plan.
TEST_F(Candidates, TheGpuSidesPriceFlipsThePick) {
  const Problem p = problem(FFTW_ESTIMATE);
  const double cpu_s = cpu_price(p, 1);
  for (double ratio : {0.9, 1.1, 0.5, 2.0}) {
    gpu_.one_s = cpu_s * ratio;
    const Dispatched d = choose_now(p);
    EXPECT_EQ(made(d).gpu(), ratio < 1) << ratio << ": " << d.why;
  }
}

// Where one side alone applies nothing is weighed: the why is what rules
// the rest out, each reason once, and the real FFTW runs at the most
// threads that apply.
TEST_F(Candidates, OneSideAloneRunsUnweighedWithWhatRulesTheRestOut) {
  cpu_.program_threads = 4;
  const Problem p = problem();
  std::vector<Candidate> list = ways_of(p);
  rule_out(&list, true, Unfit::NoRates, "no rates in this test");
  Dispatched d = decide_now(p, list);
  EXPECT_FALSE(made(d).gpu());
  EXPECT_EQ(made(d).threads(), 4);
  EXPECT_EQ(d.why, "no rates in this test");

  const Problem small = tiny(FFTW_MEASURE);
  d = decide_now(small, ways_of(small));
  EXPECT_EQ(made(d).threads(), 1);
  EXPECT_EQ(d.why, "too small for the GPU or for threads to pay: 1 thread");

  list = ways_of(p, Memory::Device, Memory::Device);
  gpu_.takes = false;
  d = decide_now(p, list);
  EXPECT_EQ(d.plan, nullptr) << "never the real FFTW on device arrays";
  EXPECT_EQ(d.why, "arrays in device memory, but the GPU cannot take it: the GPU cannot take it in this test");
  EXPECT_EQ(readings_, 0);
  EXPECT_EQ(store_, nullptr) << "nothing weighed, no store";
}

}  // namespace
}  // namespace gpufftw
