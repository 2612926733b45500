// The real FFTW's thread count for a transform too small for the GPU or
// for threads (at most 4096 points), planned after
// fftw_plan_with_nthreads(4): one thread under every flag, untimed, the
// plan at four made too where measuring (its wisdom the real FFTW's
// FFTW_WISDOM_ONLY asks for); FFTW_WISDOM_ONLY gives a plan where the real
// FFTW would. No GPU needed.
#include <fftw3.h>
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "gpufftw/gpufftw.h"

namespace {

constexpr int kN = 256;

class ThreadsChoice : public testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(fftwf_init_threads());
    fftwf_plan_with_nthreads(4);
    fftwf_forget_wisdom();
    fftwf_plan probe = plan(FFTW_ESTIMATE);
    ASSERT_NE(probe, nullptr);
    // The library built without the GPU engine has no dispatch: every
    // plan is the real FFTW's as the program asked for it.
    const bool dispatched = std::string(gpufftw_plan_why(probe)) != "built without CUDA";
    fftwf_destroy_plan(probe);
    if (!dispatched) GTEST_SKIP() << "built without the GPU engine: no dispatch";
  }
  void TearDown() override {
    fftwf_free(in_);
    fftwf_free(out_);
    fftwf_plan_with_nthreads(1);
  }

  fftwf_plan plan(unsigned flags) { return fftwf_plan_dft_1d(kN, in_, out_, FFTW_FORWARD, flags); }

  // A plan under `flags` is made, says `why_has`, and transforms right.
  void expect_planned(unsigned flags, const std::string &why_has, const std::string &why_lacks = "") {
    fftwf_plan p = plan(flags);
    ASSERT_NE(p, nullptr) << "flags " << flags << ": NULL plan";
    const std::string why = gpufftw_plan_why(p);
    EXPECT_STREQ(gpufftw_plan_where(p), "cpu");
    EXPECT_NE(why.find(why_has), std::string::npos) << "flags " << flags << ": " << why;
    if (!why_lacks.empty()) {
      EXPECT_EQ(why.find(why_lacks), std::string::npos) << "flags " << flags << ": " << why;
    }
    EXPECT_LT(error_against_estimate(p), 1e-5) << "flags " << flags;
    fftwf_destroy_plan(p);
  }

  // The plan's output on random input against a one-thread FFTW_ESTIMATE plan's.
  double error_against_estimate(fftwf_plan p) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(-0.5f, 0.5f);
    std::vector<fftwf_complex> x(kN), want(kN);
    for (auto &v : x) v[0] = u(rng), v[1] = u(rng);
    fftwf_plan_with_nthreads(1);
    fftwf_plan ref = fftwf_plan_dft_1d(kN, x.data(), want.data(), FFTW_FORWARD, FFTW_ESTIMATE);
    fftwf_plan_with_nthreads(4);
    fftwf_execute(ref);
    fftwf_destroy_plan(ref);
    for (int i = 0; i < kN; ++i) in_[i][0] = x[i][0], in_[i][1] = x[i][1];
    fftwf_execute(p);
    double err = 0, norm = 0;
    for (int i = 0; i < kN; ++i)
      for (int c = 0; c < 2; ++c) {
        err += (out_[i][c] - want[i][c]) * (out_[i][c] - want[i][c]);
        norm += want[i][c] * want[i][c];
      }
    return std::sqrt(err / norm);
  }

  fftwf_complex *in_ = fftwf_alloc_complex(kN), *out_ = fftwf_alloc_complex(kN);
};

TEST_F(ThreadsChoice, EveryFlagTakesOneThreadWithoutMeasuring) {
  for (unsigned flags : {FFTW_ESTIMATE, FFTW_MEASURE, FFTW_PATIENT}) {
    fftwf_forget_wisdom();
    expect_planned(flags, "for threads to pay: 1 thread", "measured");
  }
}

// FFTW_MEASURE leaves wisdom at both counts: a later FFTW_WISDOM_ONLY plan
// runs at one thread, and the real FFTW itself (GPUFFTW_MODE=cpu) finds
// the wisdom at four. Wisdom made at the program's count alone (the GPU
// off) is found too; wisdom at one thread alone, or none, gives NULL, as
// the real FFTW does.
TEST_F(ThreadsChoice, WisdomOnlyAnswersAsTheRealFftw) {
  fftwf_destroy_plan(plan(FFTW_MEASURE));
  expect_planned(FFTW_MEASURE | FFTW_WISDOM_ONLY, ": 1 thread", "FFTW_WISDOM_ONLY");
  gpufftw_set_mode(GPUFFTW_MODE_CPU);
  fftwf_plan real_at_four = plan(FFTW_MEASURE | FFTW_WISDOM_ONLY);
  gpufftw_set_mode(GPUFFTW_MODE_AUTO);
  EXPECT_NE(real_at_four, nullptr) << "no wisdom at 4 threads after FFTW_MEASURE";
  if (real_at_four) fftwf_destroy_plan(real_at_four);

  fftwf_forget_wisdom();
  gpufftw_set_mode(GPUFFTW_MODE_CPU);
  fftwf_plan_with_nthreads(1);
  fftwf_plan at_one = plan(FFTW_MEASURE);
  fftwf_plan_with_nthreads(4);
  gpufftw_set_mode(GPUFFTW_MODE_AUTO);
  ASSERT_NE(at_one, nullptr);
  fftwf_destroy_plan(at_one);
  fftwf_plan only_one = plan(FFTW_MEASURE | FFTW_WISDOM_ONLY);
  EXPECT_EQ(only_one, nullptr) << gpufftw_plan_why(only_one);
  if (only_one) fftwf_destroy_plan(only_one);

  fftwf_forget_wisdom();
  gpufftw_set_mode(GPUFFTW_MODE_CPU);
  fftwf_plan at_four = plan(FFTW_MEASURE);
  gpufftw_set_mode(GPUFFTW_MODE_AUTO);
  ASSERT_NE(at_four, nullptr);
  fftwf_destroy_plan(at_four);
  expect_planned(FFTW_MEASURE | FFTW_WISDOM_ONLY, "the wisdom at 4 threads");

  fftwf_forget_wisdom();
  fftwf_plan none = plan(FFTW_MEASURE | FFTW_WISDOM_ONLY);
  EXPECT_EQ(none, nullptr) << gpufftw_plan_why(none);
  if (none) fftwf_destroy_plan(none);
}

}  // namespace
