// FFTW_MEASURE picks the real FFTW's thread count too: a transform too
// small for the GPU, planned after fftw_plan_with_nthreads(4), is measured
// at one thread and at four, runs with the faster, and says so; under
// FFTW_ESTIMATE it runs at one thread without measuring. No GPU needed.
#include <fftw3.h>
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "gpufftw/gpufftw.h"

namespace {

class ThreadsChoice : public testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(fftwf_init_threads());
    fftwf_plan_with_nthreads(4);
  }
  // The library built without the GPU engine has no dispatch: every plan
  // is the real FFTW's as the program asked for it.
  static bool dispatches(fftwf_plan p) { return std::string(gpufftw_plan_why(p)) != "built without CUDA"; }
  void TearDown() override { fftwf_plan_with_nthreads(1); }
};

// The plan's output on random input against a one-thread FFTW_ESTIMATE plan's.
double error_against_estimate(fftwf_plan p, fftwf_complex *in, fftwf_complex *out, int n) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-0.5f, 0.5f);
  std::vector<fftwf_complex> x(n), want(n);
  for (auto &v : x) v[0] = u(rng), v[1] = u(rng);
  fftwf_plan_with_nthreads(1);
  fftwf_plan ref = fftwf_plan_dft_1d(n, x.data(), want.data(), FFTW_FORWARD, FFTW_ESTIMATE);
  fftwf_plan_with_nthreads(4);
  fftwf_execute(ref);
  fftwf_destroy_plan(ref);
  for (int i = 0; i < n; ++i) in[i][0] = x[i][0], in[i][1] = x[i][1];
  fftwf_execute(p);
  double err = 0, norm = 0;
  for (int i = 0; i < n; ++i)
    for (int c = 0; c < 2; ++c) {
      err += (out[i][c] - want[i][c]) * (out[i][c] - want[i][c]);
      norm += want[i][c] * want[i][c];
    }
  return std::sqrt(err / norm);
}

TEST_F(ThreadsChoice, MeasureTimesOneThreadAndTheProgramsCount) {
  const int n = 256;
  fftwf_complex *in = fftwf_alloc_complex(n), *out = fftwf_alloc_complex(n);
  fftwf_plan p = fftwf_plan_dft_1d(n, in, out, FFTW_FORWARD, FFTW_MEASURE);
  ASSERT_NE(p, nullptr);
  if (!dispatches(p)) {
    fftwf_destroy_plan(p);
    fftwf_free(in);
    fftwf_free(out);
    GTEST_SKIP() << "built without the GPU engine: no dispatch";
  }
  const std::string why = gpufftw_plan_why(p);
  EXPECT_STREQ(gpufftw_plan_where(p), "cpu");
  EXPECT_NE(why.find("measured: 1 thread "), std::string::npos) << why;
  EXPECT_NE(why.find(", 4 threads "), std::string::npos) << why;
  const std::string chosen = why.substr(why.rfind(": ") + 2);  // the count chosen, named last
  EXPECT_TRUE(chosen == "1 thread" || chosen == "4 threads") << why;
  EXPECT_LT(error_against_estimate(p, in, out, n), 1e-5);
  fftwf_destroy_plan(p);
  fftwf_free(in);
  fftwf_free(out);
}

TEST_F(ThreadsChoice, EstimateTakesOneThreadWithoutMeasuring) {
  const int n = 256;
  fftwf_complex *in = fftwf_alloc_complex(n), *out = fftwf_alloc_complex(n);
  fftwf_plan p = fftwf_plan_dft_1d(n, in, out, FFTW_FORWARD, FFTW_ESTIMATE);
  ASSERT_NE(p, nullptr);
  if (!dispatches(p)) {
    fftwf_destroy_plan(p);
    fftwf_free(in);
    fftwf_free(out);
    GTEST_SKIP() << "built without the GPU engine: no dispatch";
  }
  const std::string why = gpufftw_plan_why(p);
  EXPECT_NE(why.find("1 thread"), std::string::npos) << why;
  EXPECT_EQ(why.find("measured"), std::string::npos) << why;
  EXPECT_LT(error_against_estimate(p, in, out, n), 1e-5);
  fftwf_destroy_plan(p);
  fftwf_free(in);
  fftwf_free(out);
}

}  // namespace
