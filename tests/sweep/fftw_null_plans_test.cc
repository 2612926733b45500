// Bad input that FFTW 3.3.10 answers with a NULL plan (checked against the
// real FFTW; a drop-in replacement must do the same and must not crash).
// Also pins down the one valid request FFTW refuses: FFTW_PRESERVE_INPUT for
// an out-of-place multi-dimensional c2r.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "fftw_traits.h"
#include "precisions.h"

namespace sweep {
namespace {

template <class T>
class NullPlans : public ::testing::Test {
 public:
  using F = FftwApi<T>;
  using C = typename F::complex;
  using Plan = typename F::plan;
  static constexpr std::size_t kScalars = 4096;

  void SetUp() override {
    for (T*& p : bufs_) {
      p = F::alloc_real(kScalars);
      ASSERT_NE(p, nullptr);
    }
    refill();
  }
  // FFTW_MEASURE planning may overwrite the arrays, even when it ends up
  // returning NULL: tests refill after MEASURE calls.
  void refill() {
    for (T* p : bufs_)
      for (std::size_t i = 0; i < kScalars; ++i) p[i] = static_cast<T>(i % 7);
  }
  void TearDown() override {
    // Refused planning must not have touched the arrays either.
    for (T* p : bufs_) {
      for (std::size_t i = 0; i < kScalars; ++i)
        ASSERT_EQ(p[i], static_cast<T>(i % 7)) << "array modified by a refused planner call";
      F::free(p);
    }
  }

  T* r(int i) { return bufs_[i]; }
  C* c(int i) { return reinterpret_cast<C*>(bufs_[i]); }

  // The plan must be NULL; destroying it (a no-op) must not crash either.
  void expect_null(Plan p, const char* what) {
    EXPECT_EQ(p, nullptr) << what;
    if (p) F::destroy_plan(p);
  }

  T* bufs_[4] = {};
};

TYPED_TEST_SUITE(NullPlans, Precisions, PrecisionNames);

#define EXPECT_NULL_PLAN(call) this->expect_null(call, #call)

TYPED_TEST(NullPlans, NonPositiveSizesBasic) {
  using F = FftwApi<TypeParam>;
  const unsigned e = FFTW_ESTIMATE;
  const int n2[2] = {4, 0}, n3[3] = {3, -2, 4}, n4[4] = {2, 2, 0, 2};
  for (int bad : {0, -1, -7}) {
    EXPECT_NULL_PLAN(F::plan_dft_1d(bad, this->c(0), this->c(1), FFTW_FORWARD, e));
    EXPECT_NULL_PLAN(F::plan_dft_r2c_1d(bad, this->r(0), this->c(1), e));
    EXPECT_NULL_PLAN(F::plan_dft_c2r_1d(bad, this->c(0), this->r(1), e));
    EXPECT_NULL_PLAN(F::plan_r2r_1d(bad, this->r(0), this->r(1), FFTW_R2HC, e));
    EXPECT_NULL_PLAN(F::plan_dft_2d(4, bad, this->c(0), this->c(1), FFTW_BACKWARD, e));
    EXPECT_NULL_PLAN(F::plan_dft_3d(bad, 2, 2, this->c(0), this->c(1), FFTW_FORWARD, e));
    EXPECT_NULL_PLAN(F::plan_dft_r2c_2d(bad, 4, this->r(0), this->c(1), e));
    EXPECT_NULL_PLAN(F::plan_dft_c2r_3d(2, 2, bad, this->c(0), this->r(1), e));
    EXPECT_NULL_PLAN(F::plan_r2r_2d(3, bad, this->r(0), this->r(1), FFTW_DHT, FFTW_DHT, e));
  }
  const fftw_r2r_kind k[4] = {FFTW_R2HC, FFTW_R2HC, FFTW_R2HC, FFTW_R2HC};
  EXPECT_NULL_PLAN(F::plan_dft(2, n2, this->c(0), this->c(1), FFTW_FORWARD, e));
  EXPECT_NULL_PLAN(F::plan_dft(3, n3, this->c(0), this->c(1), FFTW_FORWARD, e));
  EXPECT_NULL_PLAN(F::plan_dft(4, n4, this->c(0), this->c(1), FFTW_FORWARD, e));
  EXPECT_NULL_PLAN(F::plan_dft_r2c(3, n3, this->r(0), this->c(1), e));
  EXPECT_NULL_PLAN(F::plan_dft_c2r(2, n2, this->c(0), this->r(1), e));
  EXPECT_NULL_PLAN(F::plan_r2r(4, n4, this->r(0), this->r(1), k, e));
}

TYPED_TEST(NullPlans, NegativeRankOrHowmanyAdvanced) {
  using F = FftwApi<TypeParam>;
  const unsigned e = FFTW_ESTIMATE;
  const int n[2] = {4, 4};
  const fftw_r2r_kind k[2] = {FFTW_REDFT10, FFTW_REDFT10};
  // rank < 0
  EXPECT_NULL_PLAN(F::plan_dft(-1, n, this->c(0), this->c(1), FFTW_FORWARD, e));
  EXPECT_NULL_PLAN(F::plan_dft_r2c(-1, n, this->r(0), this->c(1), e));
  EXPECT_NULL_PLAN(F::plan_dft_c2r(-2, n, this->c(0), this->r(1), e));
  EXPECT_NULL_PLAN(F::plan_r2r(-1, n, this->r(0), this->r(1), k, e));
  EXPECT_NULL_PLAN(F::plan_many_dft(-1, n, 2, this->c(0), nullptr, 1, 16, this->c(1),
                                    nullptr, 1, 16, FFTW_FORWARD, e));
  EXPECT_NULL_PLAN(F::plan_many_dft_r2c(-1, n, 2, this->r(0), nullptr, 1, 16, this->c(1),
                                        nullptr, 1, 12, e));
  EXPECT_NULL_PLAN(F::plan_many_dft_c2r(-1, n, 2, this->c(0), nullptr, 1, 12, this->r(1),
                                        nullptr, 1, 16, e));
  EXPECT_NULL_PLAN(F::plan_many_r2r(-3, n, 2, this->r(0), nullptr, 1, 16, this->r(1),
                                    nullptr, 1, 16, k, e));
  // howmany < 0
  for (int hm : {-1, -5}) {
    EXPECT_NULL_PLAN(F::plan_many_dft(2, n, hm, this->c(0), nullptr, 1, 16, this->c(1),
                                      nullptr, 1, 16, FFTW_BACKWARD, e));
    EXPECT_NULL_PLAN(F::plan_many_dft_r2c(2, n, hm, this->r(0), nullptr, 1, 16, this->c(1),
                                          nullptr, 1, 12, e));
    EXPECT_NULL_PLAN(F::plan_many_dft_c2r(2, n, hm, this->c(0), nullptr, 1, 12, this->r(1),
                                          nullptr, 1, 16, e));
    EXPECT_NULL_PLAN(F::plan_many_r2r(2, n, hm, this->r(0), nullptr, 1, 16, this->r(1),
                                      nullptr, 1, 16, k, e));
  }
  // n <= 0 in plan_many
  const int nbad[2] = {4, 0};
  EXPECT_NULL_PLAN(F::plan_many_dft(2, nbad, 2, this->c(0), nullptr, 1, 16, this->c(1),
                                    nullptr, 1, 16, FFTW_FORWARD, e));
  EXPECT_NULL_PLAN(F::plan_many_r2r(2, nbad, 2, this->r(0), nullptr, 1, 16, this->r(1),
                                    nullptr, 1, 16, k, e));
}

// One bad guru geometry, through every guru entry point (32- and 64-bit).
template <class T, class Fixture>
void expect_guru_null(Fixture* t, int rank, const fftw_iodim* d, int hrank,
                      const fftw_iodim* h, const char* what) {
  using F = FftwApi<T>;
  const unsigned e = FFTW_ESTIMATE;
  std::vector<fftw_iodim64> d64, h64;
  for (int i = 0; i < (rank > 0 ? rank : 0); ++i) d64.push_back({d[i].n, d[i].is, d[i].os});
  for (int i = 0; i < (hrank > 0 ? hrank : 0); ++i) h64.push_back({h[i].n, h[i].is, h[i].os});
  const fftw_r2r_kind k[3] = {FFTW_DHT, FFTW_DHT, FFTW_DHT};
  SCOPED_TRACE(what);
  t->expect_null(F::plan_guru_dft(rank, d, hrank, h, t->c(0), t->c(1), FFTW_FORWARD, e), "guru_dft");
  t->expect_null(F::plan_guru64_dft(rank, d64.data(), hrank, h64.data(), t->c(0), t->c(1),
                                    FFTW_FORWARD, e), "guru64_dft");
  t->expect_null(F::plan_guru_split_dft(rank, d, hrank, h, t->r(0), t->r(1), t->r(2), t->r(3), e),
                 "guru_split_dft");
  t->expect_null(F::plan_guru64_split_dft(rank, d64.data(), hrank, h64.data(), t->r(0), t->r(1),
                                          t->r(2), t->r(3), e), "guru64_split_dft");
  t->expect_null(F::plan_guru_dft_r2c(rank, d, hrank, h, t->r(0), t->c(1), e), "guru_dft_r2c");
  t->expect_null(F::plan_guru64_dft_r2c(rank, d64.data(), hrank, h64.data(), t->r(0), t->c(1), e),
                 "guru64_dft_r2c");
  t->expect_null(F::plan_guru_dft_c2r(rank, d, hrank, h, t->c(0), t->r(1), e), "guru_dft_c2r");
  t->expect_null(F::plan_guru64_dft_c2r(rank, d64.data(), hrank, h64.data(), t->c(0), t->r(1), e),
                 "guru64_dft_c2r");
  t->expect_null(F::plan_guru_split_dft_r2c(rank, d, hrank, h, t->r(0), t->r(1), t->r(2), e),
                 "guru_split_dft_r2c");
  t->expect_null(F::plan_guru64_split_dft_r2c(rank, d64.data(), hrank, h64.data(), t->r(0),
                                              t->r(1), t->r(2), e), "guru64_split_dft_r2c");
  t->expect_null(F::plan_guru_split_dft_c2r(rank, d, hrank, h, t->r(0), t->r(1), t->r(2), e),
                 "guru_split_dft_c2r");
  t->expect_null(F::plan_guru64_split_dft_c2r(rank, d64.data(), hrank, h64.data(), t->r(0),
                                              t->r(1), t->r(2), e), "guru64_split_dft_c2r");
  t->expect_null(F::plan_guru_r2r(rank, d, hrank, h, t->r(0), t->r(1), k, e), "guru_r2r");
  t->expect_null(F::plan_guru64_r2r(rank, d64.data(), hrank, h64.data(), t->r(0), t->r(1), k, e),
                 "guru64_r2r");
}

TYPED_TEST(NullPlans, BadGuruGeometry) {
  const fftw_iodim good[2] = {{4, 8, 8}, {8, 1, 1}};
  const fftw_iodim zero_n[2] = {{4, 8, 8}, {0, 1, 1}};
  const fftw_iodim neg_n[2] = {{-4, 8, 8}, {8, 1, 1}};
  const fftw_iodim hm_good[1] = {{2, 64, 64}};
  const fftw_iodim hm_neg[1] = {{-1, 64, 64}};
  expect_guru_null<TypeParam>(this, -1, good, 1, hm_good, "rank -1");
  expect_guru_null<TypeParam>(this, 2, good, -1, hm_good, "howmany_rank -1");
  expect_guru_null<TypeParam>(this, 2, zero_n, 1, hm_good, "dims n = 0");
  expect_guru_null<TypeParam>(this, 2, neg_n, 0, nullptr, "dims n < 0");
  expect_guru_null<TypeParam>(this, 2, good, 1, hm_neg, "howmany n < 0");
}

TYPED_TEST(NullPlans, Redft00OfSizeOne) {
  // REDFT00 is defined for n >= 2 only (its period is 2(n-1)).
  using F = FftwApi<TypeParam>;
  const int n[2] = {4, 1};
  const fftw_r2r_kind k[2] = {FFTW_DHT, FFTW_REDFT00};
  for (unsigned flags : {FFTW_ESTIMATE, FFTW_MEASURE}) {
    EXPECT_NULL_PLAN(F::plan_r2r_1d(1, this->r(0), this->r(1), FFTW_REDFT00, flags));
    EXPECT_NULL_PLAN(F::plan_r2r_1d(1, this->r(0), this->r(0), FFTW_REDFT00, flags));
    EXPECT_NULL_PLAN(F::plan_r2r(2, n, this->r(0), this->r(1), k, flags));
    if (flags == FFTW_MEASURE) this->refill();  // it timed the DHT part before giving up
  }
  // RODFT00 of size 1 is fine.
  typename F::plan p = F::plan_r2r_1d(1, this->r(0), this->r(1), FFTW_RODFT00, FFTW_ESTIMATE);
  EXPECT_NE(p, nullptr);
  F::destroy_plan(p);
}

// FFTW has no input-preserving algorithm for multi-dimensional c2r: with
// FFTW_PRESERVE_INPUT an out-of-place c2r gets a NULL plan as soon as a
// dimension other than the last is longer than 1 (1-D and in-place are fine).
TYPED_TEST(NullPlans, MultiDimC2rCannotPreserveInput) {
  using F = FftwApi<TypeParam>;
  for (unsigned base : {FFTW_ESTIMATE, FFTW_MEASURE}) {
    const unsigned f = base | FFTW_PRESERVE_INPUT;
    EXPECT_NULL_PLAN(F::plan_dft_c2r_2d(4, 6, this->c(0), this->r(1), f));
    EXPECT_NULL_PLAN(F::plan_dft_c2r_2d(5, 1, this->c(0), this->r(1), f));
    EXPECT_NULL_PLAN(F::plan_dft_c2r_3d(3, 4, 5, this->c(0), this->r(1), f));
    const int n[2] = {3, 8};
    EXPECT_NULL_PLAN(F::plan_many_dft_c2r(2, n, 2, this->c(0), nullptr, 1, 15, this->r(1),
                                          nullptr, 1, 24, f));
    const fftw_iodim d[2] = {{3, 5, 8}, {8, 1, 1}};
    EXPECT_NULL_PLAN(F::plan_guru_dft_c2r(2, d, 0, nullptr, this->c(0), this->r(1), f));
    EXPECT_NULL_PLAN(F::plan_guru_split_dft_c2r(2, d, 0, nullptr, this->r(0), this->r(2),
                                                this->r(1), f));
    // Accepted: effectively 1-D, or in-place.
    for (typename F::plan p :
         {F::plan_dft_c2r_1d(12, this->c(0), this->r(1), f),
          F::plan_dft_c2r_2d(1, 12, this->c(0), this->r(1), f),
          F::plan_dft_c2r_2d(4, 6, this->c(0), reinterpret_cast<TypeParam*>(this->c(0)), f)}) {
      EXPECT_NE(p, nullptr);
      if (p) F::destroy_plan(p);
    }
    this->refill();  // MEASURE planning of the accepted plans used the arrays
  }
}

TYPED_TEST(NullPlans, DestroyingNullPlanIsHarmless) {
  FftwApi<TypeParam>::destroy_plan(nullptr);
  SUCCEED();
}

}  // namespace
}  // namespace sweep
