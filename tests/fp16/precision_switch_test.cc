// gpufftw_set_precision / GPUFFTW_PRECISION through the library: the
// switch reads back, double-precision and r2r plans are not changed by it,
// r2c plans of sizes the ways computing in half do not take say so and
// keep the bound of what computed them, and a single-precision c2c plan
// that the real FFTW computes says it stays in single precision. Needs no GPU; where one is, the plans are made in GPU
// mode so that the GPU's plans are held to the same.
#include <fftw3.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "../hazards/direct_dft.h"
#include "gpufftw/gpufftw.h"

namespace {

using gpufftw_test::cld;

class Precision : public testing::Test {
 protected:
  void SetUp() override {
    saved_mode_ = gpufftw_get_mode();
    saved_ = gpufftw_get_precision();
    gpufftw_set_precision(GPUFFTW_PRECISION_FP16);
    if (gpufftw_gpu_available()) gpufftw_set_mode(GPUFFTW_MODE_GPU);
  }
  void TearDown() override {
    gpufftw_set_precision(saved_);
    gpufftw_set_mode(saved_mode_);
  }
  gpufftw_precision saved_ = GPUFFTW_PRECISION_FP32;
  gpufftw_mode saved_mode_ = GPUFFTW_MODE_AUTO;
};

bool says(const void *plan, const char *text) {
  return std::string(gpufftw_plan_why(plan)).find(text) != std::string::npos;
}

TEST(PrecisionSetting, ReadsBack) {
  const gpufftw_precision saved = gpufftw_get_precision();
  gpufftw_set_precision(GPUFFTW_PRECISION_FP16);
  EXPECT_EQ(gpufftw_get_precision(), GPUFFTW_PRECISION_FP16);
  gpufftw_set_precision(GPUFFTW_PRECISION_FP32);
  EXPECT_EQ(gpufftw_get_precision(), GPUFFTW_PRECISION_FP32);
  gpufftw_set_precision(saved);
}

// Run by ctest with GPUFFTW_PRECISION set and the value expected in
// GPUFFTW_TEST_EXPECT_PRECISION.
TEST(PrecisionSetting, StartsFromTheEnvironment) {
  const char *expect = std::getenv("GPUFFTW_TEST_EXPECT_PRECISION");
  if (!expect) GTEST_SKIP() << "run by ctest's precision_from_environment entry";
  EXPECT_EQ(gpufftw_get_precision(), std::string(expect) == "fp16" ? GPUFFTW_PRECISION_FP16 : GPUFFTW_PRECISION_FP32);
}

TEST(PrecisionSetting, Fp32AddsNothingToTheWhy) {
  const gpufftw_precision saved = gpufftw_get_precision();
  gpufftw_set_precision(GPUFFTW_PRECISION_FP32);
  const int n = 64;
  fftwf_complex *a = fftwf_alloc_complex(n);
  fftwf_plan p = fftwf_plan_dft_1d(n, a, a, FFTW_FORWARD, FFTW_ESTIMATE);
  ASSERT_NE(p, nullptr);
  EXPECT_FALSE(says(p, "GPUFFTW_PRECISION")) << gpufftw_plan_why(p);
  EXPECT_FALSE(says(p, "half precision")) << gpufftw_plan_why(p);
  fftwf_destroy_plan(p);
  fftwf_free(a);
  gpufftw_set_precision(saved);
}

TEST_F(Precision, DoublePrecisionIsUnchanged) {
  const int n = 1024;
  fftw_complex *in = fftw_alloc_complex(n), *out = fftw_alloc_complex(n);
  fftw_plan p = fftw_plan_dft_1d(n, in, out, FFTW_FORWARD, FFTW_ESTIMATE);
  ASSERT_NE(p, nullptr);
  EXPECT_TRUE(says(p, "not applied: it takes single-precision c2c, r2c and c2r plans only")) << gpufftw_plan_why(p);
  std::vector<cld> x = gpufftw_test::random_fill(&in[0][0], n);
  fftw_execute(p);
  // Double precision's bound (c eps sqrt(log2 N), c = 5): half precision
  // would miss it by ten orders of magnitude.
  EXPECT_LT(gpufftw_test::rel_error(&out[0][0], gpufftw_test::direct_dft(x, FFTW_FORWARD)),
            5 * 2.22e-16 * std::sqrt(10.0));
  fftw_destroy_plan(p);
  fftw_free(in);
  fftw_free(out);
}

// cuFFT's FP16 takes r2c of powers of two only; on the GPU the why says
// so, and the plan computes in half as single precision on halves (half's
// bound) or in single precision (single's); on the real FFTW, the why says
// that it computes it, in single precision.
TEST_F(Precision, R2cOfOtherSizesSaysWhyAndKeepsItsBound) {
  const int n = 1000, batch = 8;
  float *in = fftwf_alloc_real(static_cast<size_t>(n) * batch);
  fftwf_complex *out = fftwf_alloc_complex(static_cast<size_t>(n / 2 + 1) * batch);
  fftwf_plan p = fftwf_plan_many_dft_r2c(1, &n, batch, in, nullptr, 1, n, out, nullptr, 1, n / 2 + 1, FFTW_ESTIMATE);
  ASSERT_NE(p, nullptr);
  const bool gpu = std::string(gpufftw_plan_where(p)) == "gpu";
  EXPECT_TRUE(gpu ? says(p, "cuFFT's FP16 takes powers of two only") : says(p, "not applied: the real FFTW computes it"))
      << gpufftw_plan_why(p);
  const bool half = says(p, "computed in half precision: cuFFT fp32 on halves");
  EXPECT_TRUE(half || says(p, "single precision")) << gpufftw_plan_why(p);
  std::vector<cld> x(n);
  for (int i = 0; i < n * batch; ++i) in[i] = static_cast<float>(std::sin(0.37 * i) * 0.5);
  for (int i = 0; i < n; ++i) x[i] = in[(batch - 1) * n + i];
  fftwf_execute(p);
  const std::vector<cld> ref = gpufftw_test::direct_dft(x, FFTW_FORWARD);
  long double num = 0, den = 0;
  for (int k = 0; k <= n / 2; ++k) {
    const fftwf_complex &y = out[(batch - 1) * (n / 2 + 1) + k];
    num += std::norm(cld(y[0], y[1]) - ref[k]);
    den += std::norm(ref[k]);
  }
  EXPECT_LT(static_cast<double>(std::sqrt(num / den)), half ? 1e-3 : 5 * 1.19e-7 * std::sqrt(std::log2(n)))
      << gpufftw_plan_why(p);
  fftwf_destroy_plan(p);
  fftwf_free(in);
  fftwf_free(out);
}

TEST_F(Precision, R2rIsUnchanged) {
  const int n = 256;
  float *a = fftwf_alloc_real(n);
  fftwf_plan p = fftwf_plan_r2r_1d(n, a, a, FFTW_REDFT10, FFTW_ESTIMATE);
  ASSERT_NE(p, nullptr);
  EXPECT_TRUE(says(p, "not applied: it takes single-precision c2c, r2c and c2r plans only")) << gpufftw_plan_why(p);
  fftwf_destroy_plan(p);
  fftwf_free(a);
}

TEST_F(Precision, SinglePrecisionC2cOnTheRealFftwSaysSo) {
  gpufftw_set_mode(GPUFFTW_MODE_CPU);
  const int n = 1024;
  fftwf_complex *in = fftwf_alloc_complex(n), *out = fftwf_alloc_complex(n);
  fftwf_plan p = fftwf_plan_dft_1d(n, in, out, FFTW_BACKWARD, FFTW_ESTIMATE);
  ASSERT_NE(p, nullptr);
  EXPECT_STREQ(gpufftw_plan_where(p), "cpu");
  EXPECT_TRUE(says(p, "not applied: the real FFTW computes it, in single precision")) << gpufftw_plan_why(p);
  std::vector<cld> x = gpufftw_test::random_fill(&in[0][0], n);
  fftwf_execute(p);
  EXPECT_LT(gpufftw_test::rel_error(&out[0][0], gpufftw_test::direct_dft(x, FFTW_BACKWARD)),
            5 * 1.19e-7 * std::sqrt(10.0));
  fftwf_destroy_plan(p);
  fftwf_free(in);
  fftwf_free(out);
}

}  // namespace
