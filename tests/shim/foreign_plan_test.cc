// The plan another library is making (shim/foreign.h): libgpufftw_mpi's
// composed plan, begun and ended through the C ABI, is the plan being made
// on this thread for gpufftw's planner too, so that the serial plans its
// steps make keep to what its time limit leaves; and its prices and store
// of choices, asked through the same ABI, wait for the planner's lock.
// Built from the library's own objects, so the deadline and the lock here
// are the planner's.
#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <future>
#include <thread>
#include <utility>
#include <vector>

#include "core/time_limit.h"
#include "fallback/cpu_plan.h"
#include "shim/foreign.h"

namespace gpufftw {
namespace {

TEST(ForeignPlan, ItsDeadlineBoundsThePlansMadeInsideIt) {
  ASSERT_FALSE(plan_deadline().bounded());
  void *mpi_plan = gpufftw_foreign_plan_begin(5);
  EXPECT_TRUE(plan_deadline().bounded());
  EXPECT_LE(plan_deadline().left(), 5);
  const Deadline serial = Deadline::of(Precision::F64);
  EXPECT_TRUE(serial.bounded()) << "no program limit, but the MPI plan's";
  EXPECT_LE(serial.left(), 5);
  EXPECT_GT(serial.left(), 4);

  void *passed = gpufftw_foreign_plan_begin(0);
  EXPECT_TRUE(Deadline::of(Precision::F64).passed());
  gpufftw_foreign_plan_end(passed);
  EXPECT_GT(plan_deadline().left(), 4) << "the outer plan's again";

  gpufftw_foreign_plan_end(mpi_plan);
  EXPECT_FALSE(plan_deadline().bounded());
}

TEST(ForeignPlan, NoLimitLeavesThePlansInsideItToTheProgramsLimit) {
  void *mpi_plan = gpufftw_foreign_plan_begin(-1);
  EXPECT_FALSE(plan_deadline().bounded());
  EXPECT_FALSE(Deadline::of(Precision::F64).bounded());
  gpufftw_foreign_plan_end(mpi_plan);
}

// The MPI layer's prices and its store of choices wait for the planner's
// lock, which another thread's plan or wisdom call holds: a first price
// calibrates on the real FFTW's planner, which must not run beside it.
TEST(ForeignPlanner, ItsPricesAndChoicesWaitForAPlanUnderWay) {
  constexpr auto kHeld = std::chrono::milliseconds(300);
  const long n[2] = {64, 64};
  int composed = 0;
  double composed_ms = 0, real_ms = 0;
  const std::vector<std::pair<const char *, std::function<void()>>> calls = {
      {"cpu_seconds", [&] { gpufftw_foreign_cpu_seconds('d', GPUFFTW_FOREIGN_C2C, 2, n, 1, 1); }},
      {"remember", [] { gpufftw_foreign_remember("foreign-planner-test", 1, 1.0, 2.0); }},
      {"recall", [&] { gpufftw_foreign_recall("foreign-planner-test", &composed, &composed_ms, &real_ms); }},
  };
  for (const auto &[name, call] : calls) {
    std::promise<void> held;
    std::thread plan([&held, kHeld] {
      const std::lock_guard<RecursiveLock> planning(planner_mutex());
      held.set_value();
      std::this_thread::sleep_for(kHeld);
    });
    held.get_future().wait();
    const auto t0 = std::chrono::steady_clock::now();
    call();
    EXPECT_GE(std::chrono::steady_clock::now() - t0, kHeld * 2 / 3) << name << " ran beside the plan";
    plan.join();
  }
}

}  // namespace
}  // namespace gpufftw
