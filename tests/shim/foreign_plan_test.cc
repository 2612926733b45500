// The plan another library is making (shim/foreign.h): libgpufftw_mpi's
// composed plan, begun and ended through the C ABI, is the plan being made
// on this thread for gpufftw's planner too, so that the serial plans its
// steps make keep to what its time limit leaves. Built from the library's
// own objects, so the deadline read here is the planner's.
#include <gtest/gtest.h>

#include "core/time_limit.h"
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

}  // namespace
}  // namespace gpufftw
