// The room rule for the real FFTW's planner under an address-space limit
// (core/address_room.h): which plan a limit leaves room for, and bounds
// that cover the needs measured (docs/results/hardening.md).
#include <gtest/gtest.h>

#include <sys/resource.h>

#include "core/address_room.h"

namespace gpufftw {
namespace {

constexpr uint64_t kMB = 1 << 20;

Problem one_d(Kind kind, int64_t n, unsigned flags, int64_t batch = 1) {
  Problem p;
  p.kind = kind;
  p.dims = {{n, 1, 1}};
  if (batch > 1) p.howmany = {{batch, n, n}};
  p.flags = flags;
  if (kind == Kind::R2R) p.r2r_kinds = {FFTW_REDFT10};
  return p;
}

TEST(AddressRoom, AMeasuredPlanBecomesEstimateThenNone) {
  const PlanNeeds needs{50 * kMB, 20 * kMB};
  const uint64_t limit = 100 * kMB;
  EXPECT_EQ(plan_room(limit, limit - 50 * kMB, needs, FFTW_MEASURE), Room::AsAsked);
  EXPECT_EQ(plan_room(limit, limit - 50 * kMB + 1, needs, FFTW_MEASURE), Room::Estimate);
  EXPECT_EQ(plan_room(limit, limit - 20 * kMB, needs, FFTW_PATIENT), Room::Estimate);
  EXPECT_EQ(plan_room(limit, limit - 20 * kMB + 1, needs, FFTW_EXHAUSTIVE), Room::None);
  // Mapped past the limit (a limit set below what a process already holds).
  EXPECT_EQ(plan_room(limit, limit + kMB, needs, FFTW_MEASURE), Room::None);
}

TEST(AddressRoom, AnEstimatedPlanIsMadeOrNot) {
  const PlanNeeds needs{20 * kMB, 20 * kMB};
  EXPECT_EQ(plan_room(100 * kMB, 80 * kMB, needs, FFTW_ESTIMATE), Room::AsAsked);
  EXPECT_EQ(plan_room(100 * kMB, 81 * kMB, needs, FFTW_ESTIMATE), Room::None);
}

TEST(AddressRoom, WisdomOnlyIsNotEstimated) {
  // FFTW_WISDOM_ONLY's plan is wisdom's or none: never another planning.
  const PlanNeeds needs{50 * kMB, 20 * kMB};
  EXPECT_EQ(plan_room(100 * kMB, 70 * kMB, needs, FFTW_MEASURE | FFTW_WISDOM_ONLY), Room::None);
  EXPECT_EQ(plan_room(100 * kMB, 50 * kMB, needs, FFTW_MEASURE | FFTW_WISDOM_ONLY), Room::AsAsked);
}

// Needs measured with plain FFTW 3.3.10 (VmPeak less VmSize around the
// plan; hardening.md's table), each under its bound, by at least a fifth.
struct Measured {
  Problem problem;
  uint64_t need_kb;
};

TEST(AddressRoom, BoundsCoverTheMeasuredNeeds) {
  Problem two_d = one_d(Kind::C2C, 1024, FFTW_MEASURE);
  two_d.dims.push_back({1024, 1, 1});
  const Measured cases[] = {
      {one_d(Kind::C2C, 1048576, FFTW_ESTIMATE), 1692},
      {one_d(Kind::C2C, 262144, FFTW_ESTIMATE), 2240},
      {one_d(Kind::C2C, 16777216, FFTW_ESTIMATE), 5824},
      {one_d(Kind::C2C, 65536, FFTW_ESTIMATE), 696},
      {one_d(Kind::C2C, 1048576, FFTW_MEASURE), 2256},
      {one_d(Kind::C2C, 999999, FFTW_MEASURE), 32420},
      {one_d(Kind::C2C, 1310720, FFTW_MEASURE), 32304},
      {one_d(Kind::C2C, 999999, FFTW_ESTIMATE), 15896},
      {one_d(Kind::R2C, 2097152, FFTW_ESTIMATE), 18784},
      {one_d(Kind::R2R, 2097152, FFTW_MEASURE), 39408},
      {one_d(Kind::C2C, 1000003, FFTW_ESTIMATE), 79124},
      {one_d(Kind::C2C, 2000003, FFTW_MEASURE), 162952},
      {one_d(Kind::R2C, 1000003, FFTW_MEASURE), 75440},
      {one_d(Kind::C2C, 65537, FFTW_MEASURE), 8404},
      {one_d(Kind::C2C, 65536, FFTW_MEASURE, 16), 2096},
      {one_d(Kind::C2C, 249999, FFTW_PATIENT), 12388},
      {one_d(Kind::C2C, 16384, FFTW_PATIENT), 1816},
      {one_d(Kind::C2C, 65536, FFTW_EXHAUSTIVE), 17264},
      {one_d(Kind::C2C, 16384, FFTW_EXHAUSTIVE), 11952},
      {two_d, 960},
  };
  for (const Measured &m : cases) {
    const PlanNeeds needs = plan_needs(m.problem, sizeof(double));
    EXPECT_GE(needs.as_asked, m.need_kb * 1024 * 6 / 5) << m.problem.describe();
    EXPECT_LE(needs.estimated, needs.as_asked) << m.problem.describe();
  }
}

TEST(AddressRoom, AMeasuredPlanNeedsMoreThanItsEstimate) {
  // The test program's 16 MB array (tests/hazards/impulse_main.c).
  const PlanNeeds m = plan_needs(one_d(Kind::C2C, 1048576, FFTW_MEASURE), sizeof(double));
  EXPECT_GT(m.as_asked, m.estimated);
  // A power-of-two complex length's estimate needs less than another's.
  EXPECT_LT(m.estimated, plan_needs(one_d(Kind::C2C, 1048575, FFTW_MEASURE), sizeof(double)).estimated);
  EXPECT_LT(m.estimated, plan_needs(one_d(Kind::R2C, 1048576, FFTW_MEASURE), sizeof(double)).estimated);
  // Single precision needs half.
  const PlanNeeds f = plan_needs(one_d(Kind::C2C, 1048576, FFTW_MEASURE), sizeof(float));
  EXPECT_LT(f.as_asked, m.as_asked);
}

TEST(AddressRoom, ReadsTheLimitOnlyWhereThereIsOne) {
  rlimit r{};
  ASSERT_EQ(getrlimit(RLIMIT_AS, &r), 0);
  const std::optional<AddressSpace> space = address_space();
  if (r.rlim_cur == RLIM_INFINITY) {
    EXPECT_FALSE(space);
  } else {
    ASSERT_TRUE(space);
    EXPECT_EQ(space->limit, r.rlim_cur);
    EXPECT_GT(space->in_use, 0u);
  }
}

}  // namespace
}  // namespace gpufftw
