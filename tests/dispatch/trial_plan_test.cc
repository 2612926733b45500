// A plan near the crossing (shim/trial_plan.h) without a GPU: two fake
// sides on a fake clock, so that each execute's time is what the test says.
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "shim/report.h"
#include "shim/trial_plan.h"

namespace gpufftw {
namespace {

double fake_now = 0;  // seconds; advanced by the fake plans' executes
double fake_clock() { return fake_now; }

Problem test_problem() {
  Problem p;
  p.kind = Kind::C2C;
  p.precision = Precision::F32;
  p.dims = {{4096, 1, 1}};
  p.howmany = {{8, 4096, 4096}};
  return p;
}

// A side whose executes take `then` seconds, or `first` where the other
// side (or nothing) ran just before: the price of a switch.
const Plan *last_ran = nullptr;

class FakePlan final : public Plan {
 public:
  FakePlan(const char *where, double first, double then)
      : Plan(test_problem()), where_(where), first_(first), then_(then) {}
  void execute(const Arrays &arrays) override {
    const double took = last_ran != this ? first_ : then_;
    if (took > 0) {  // threads run zero-time sides only
      fake_now += took;
      last_ran = this;
    }
    ++runs;
    last_in = arrays.a[0];
  }
  void print(FILE *out) const override { std::fprintf(out, "(fake %s)", where_); }
  void flops(double *add, double *mul, double *fma) const override { *add = *mul = *fma = 1; }
  double cost() const override { return 0; }
  double estimate_cost() const override { return 0; }
  const char *where() const override { return where_; }
  std::atomic<int> runs{0};
  std::atomic<void *> last_in{nullptr};

 private:
  const char *where_;
  double first_, then_;
};

struct Outcome {
  int calls = 0;
  bool gpu = false;
  double gpu_s = 0, cpu_s = 0;
};

// A trial leaning to `lean`, the other side made at its first turn;
// `made` counts the other side's making.
struct Trial {
  FakePlan *lean, *other;
  int made = 0;
  Outcome outcome;
  std::unique_ptr<TrialPlan> plan;

  Trial(FakePlan *l, FakePlan *o) : lean(l), other(o) {
    last_ran = nullptr;
    plan = std::make_unique<TrialPlan>(
        test_problem(), std::unique_ptr<Plan>(l), nullptr,
        [this]() -> std::unique_ptr<Plan> {
          ++made;
          return std::unique_ptr<Plan>(other);
        },
        [this](bool gpu, double gpu_s, double cpu_s) { outcome = {outcome.calls + 1, gpu, gpu_s, cpu_s}; },
        fake_clock);
    plan->reason = "model: close";
  }
  void run(int times) {
    for (int i = 0; i < times; ++i) plan->execute(Arrays{});
  }
};

TEST(TrialPlan, FirstExecuteRunsTheLeaningSideAndMakesNoOther) {
  Trial t(new FakePlan("gpu", 1e-3, 1e-3), new FakePlan("cpu", 1e-3, 1e-3));
  EXPECT_STREQ(t.plan->where(), "gpu");
  t.run(1);
  EXPECT_EQ(t.lean->runs, 1);
  EXPECT_EQ(t.made, 0);
  EXPECT_STREQ(t.plan->why(), "model: close");
  delete t.other;  // never handed over
}

TEST(TrialPlan, SettlesOnTheFasterSideAndStaysThere) {
  // Leans to the GPU, which runs 3x slower than the CPU.
  Trial t(new FakePlan("gpu", 5e-3, 3e-4), new FakePlan("cpu", 5e-3, 1e-4));
  t.run(1);
  EXPECT_STREQ(t.plan->where(), "gpu");
  FakePlan *cpu = t.other;
  t.run(TrialPlan::kTurns - 1);
  EXPECT_EQ(t.made, 1);
  EXPECT_EQ(cpu->runs, TrialPlan::kTurns / 2);
  ASSERT_EQ(t.outcome.calls, 1);
  EXPECT_FALSE(t.outcome.gpu);
  EXPECT_NEAR(t.outcome.gpu_s, 3e-4, 1e-12);  // the switches (5 ms) left out
  EXPECT_NEAR(t.outcome.cpu_s, 1e-4, 1e-12);
  EXPECT_STREQ(t.plan->where(), "cpu");
  const std::string why = t.plan->why();
  EXPECT_EQ(why.rfind("model: close; its first executes: gpu 0.3 ms, cpu 0.1 ms: runs on the cpu", 0), 0u) << why;
  const int before = cpu->runs;
  t.run(10);
  EXPECT_EQ(cpu->runs, before + 10);
  EXPECT_EQ(t.outcome.calls, 1);  // told once
}

TEST(TrialPlan, KeepsTheLeaningSideWhereItIsFaster) {
  Trial t(new FakePlan("cpu", 1e-4, 1e-4), new FakePlan("gpu", 1e-4, 1.5e-4));
  FakePlan *cpu = t.lean;
  t.run(TrialPlan::kTurns + 4);
  EXPECT_FALSE(t.outcome.gpu);
  EXPECT_STREQ(t.plan->where(), "cpu");
  EXPECT_EQ(cpu->runs, TrialPlan::kTurns / 2 + 4);
}

// An execute right after the other side's pays for the switch (10 ms
// here): alternating single executes would time only switches; blocks
// time each side on its own.
TEST(TrialPlan, AnExecuteRightAfterTheOtherSidesIsNotTimed) {
  Trial t(new FakePlan("cpu", 1e-2, 1e-4), new FakePlan("gpu", 1e-2, 2e-4));
  t.run(TrialPlan::kTurns);
  EXPECT_FALSE(t.outcome.gpu);
  EXPECT_NEAR(t.outcome.cpu_s, 1e-4, 1e-12);
  EXPECT_NEAR(t.outcome.gpu_s, 2e-4, 1e-12);
}

TEST(TrialPlan, EveryExecuteGetsTheProgramsArrays) {
  Trial t(new FakePlan("gpu", 1e-4, 1e-4), new FakePlan("cpu", 1e-4, 2e-4));
  FakePlan *gpu = t.lean, *cpu = t.other;
  int data[2];
  for (int i = 0; i < TrialPlan::kTurns + 2; ++i) {
    Arrays a;
    a.a[0] = &data[i % 2];
    t.plan->execute(a);
    FakePlan *ran = i < TrialPlan::kTurns && i / TrialPlan::kBlock % 2 == 1 ? cpu : gpu;
    EXPECT_EQ(ran->last_in, &data[i % 2]) << "execute " << i;
  }
}

TEST(TrialPlan, WithoutAnOtherSideItStaysWhereItLeans) {
  auto *lean = new FakePlan("cpu", 1e-4, 1e-4);
  int asked = 0, told = 0;
  TrialPlan plan(
      test_problem(), std::unique_ptr<Plan>(lean), nullptr,
      [&asked]() -> std::unique_ptr<Plan> {
        ++asked;
        return nullptr;
      },
      [&told](bool, double, double) { ++told; }, fake_clock);
  plan.reason = "model: close";
  for (int i = 0; i < 5; ++i) plan.execute(Arrays{});
  EXPECT_EQ(lean->runs, 5);
  EXPECT_EQ(asked, 1);
  EXPECT_EQ(told, 0);  // nothing was timed: nothing to remember
  EXPECT_STREQ(plan.why(), "model: close; the GPU gave no plan to time: runs on the cpu");
}

TEST(TrialPlan, AnOtherSideGivenUpFrontIsTimedToo) {
  auto *cpu = new FakePlan("cpu", 1e-4, 4e-4), *gpu = new FakePlan("gpu", 1e-4, 2e-4);
  bool gpu_chosen = false;
  TrialPlan plan(test_problem(), std::unique_ptr<Plan>(cpu), std::unique_ptr<Plan>(gpu), nullptr,
                 [&gpu_chosen](bool g, double, double) { gpu_chosen = g; }, fake_clock);
  for (int i = 0; i < TrialPlan::kTurns; ++i) plan.execute(Arrays{});
  EXPECT_TRUE(gpu_chosen);
  EXPECT_STREQ(plan.where(), "gpu");
}

TEST(TrialPlan, TheReportCountsThePlanWhereItSettled) {
  Trial t(new FakePlan("gpu", 1e-4, 3e-4), new FakePlan("cpu", 1e-4, 1e-4));
  const Problem p = test_problem();
  PlanStats *gpu = stats_for(p, "gpu", "model: close");
  gpu->plans.fetch_add(1);
  t.plan->stats.store(gpu);
  const uint64_t gpu_plans = gpu->plans;
  t.run(TrialPlan::kTurns);
  PlanStats *now = t.plan->stats.load();
  EXPECT_STREQ(now->where.c_str(), "cpu");
  EXPECT_EQ(gpu->plans, gpu_plans - 1);
  EXPECT_GE(now->plans, 1u);
}

// FFTW lets threads execute one plan at once: every call runs exactly once,
// the choice is told once.
TEST(TrialPlan, ThreadsExecutingItAtOnce) {
  auto *gpu = new FakePlan("gpu", 0, 0), *cpu = new FakePlan("cpu", 0, 0);
  std::atomic<int> told{0};
  TrialPlan plan(test_problem(), std::unique_ptr<Plan>(gpu), std::unique_ptr<Plan>(cpu), nullptr,
                 [&told](bool, double, double) { ++told; });
  std::vector<std::thread> threads;
  for (int k = 0; k < 4; ++k)
    threads.emplace_back([&plan] {
      for (int i = 0; i < 200; ++i) plan.execute(Arrays{});
    });
  for (std::thread &t : threads) t.join();
  const FakePlan *kept = std::strcmp(plan.where(), "gpu") == 0 ? gpu : cpu;
  const int lost = TrialPlan::kTurns / 2;  // the other side's runs, freed with it
  EXPECT_EQ(kept->runs + lost, 800);
  EXPECT_EQ(told, 1);
}

}  // namespace
}  // namespace gpufftw
