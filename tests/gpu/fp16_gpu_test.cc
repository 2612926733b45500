// The FP16 tensor-core FFT (engine/fp16) against the real FFTW in double on
// the same half-precision input: every length and direction, in place and
// out of place, batches that end in a partly filled block, 2-D and 3-D.
// Skips, saying so, without a GPU of compute capability 8.0 or more.
#include <cuda_fp16.h>
#include <cuda_runtime_api.h>
#include <fftw3.h>
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "engine/fp16/fp16_fft.h"
#include "tests/gpu/usable_gpu.h"

namespace {

using gpufftw::engine::fp16::Fp16Plan;

constexpr double kTolerance = 2e-3;  // the FP16 path's bound for n <= 4096 (docs/fp16.md)

class Fp16 : public UsableGpuTest {
 protected:
  void SetUp() override {
    UsableGpuTest::SetUp();
    if (IsSkipped()) return;
    int major = 0;
    cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0);
    if (major < 8) GTEST_SKIP() << "the FP16 kernels need compute capability 8.0; this GPU has " << major << ".x";
  }
};

long long product(const std::vector<int> &n) {
  long long p = 1;
  for (int v : n) p *= v;
  return p;
}

// Relative L2 error of one run of a plan for n x batch against FFTW double,
// on fresh random input; the output starts as NaN, so an element never
// written fails. offset: values the arrays start past their allocation
// (1: only 4-byte aligned, which the kernels take one value at a time).
double error(const std::vector<int> &n, long long batch, int sign, bool in_place, size_t offset = 0) {
  const size_t count = static_cast<size_t>(product(n) * batch);
  std::mt19937 rng(std::random_device{}());
  std::uniform_real_distribution<float> u(-0.5f, 0.5f);
  std::vector<__half2> x(count);
  std::vector<std::complex<double>> ref(count);
  for (size_t i = 0; i < count; ++i) {
    x[i] = __floats2half2_rn(u(rng), u(rng));
    ref[i] = {__low2float(x[i]), __high2float(x[i])};
  }
  auto *r = reinterpret_cast<fftw_complex *>(ref.data());
  const int dist = static_cast<int>(product(n));
  fftw_plan p = fftw_plan_many_dft(static_cast<int>(n.size()), n.data(), static_cast<int>(batch), r, nullptr, 1, dist,
                                   r, nullptr, 1, dist, sign, FFTW_ESTIMATE);
  fftw_execute(p);
  fftw_destroy_plan(p);

  std::string why;
  const auto plan = Fp16Plan::create(n, batch, &why);
  EXPECT_TRUE(plan) << why;
  if (!plan) return 1;
  __half2 *in = nullptr, *out = nullptr;
  const size_t bytes = count * sizeof(__half2);
  EXPECT_EQ(cudaMalloc(reinterpret_cast<void **>(&in), bytes + offset * sizeof(__half2)), cudaSuccess);
  EXPECT_EQ(cudaMalloc(reinterpret_cast<void **>(&out), bytes + offset * sizeof(__half2)), cudaSuccess);
  EXPECT_EQ(cudaMemset(out, 0xff, bytes + offset * sizeof(__half2)), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(in + offset, x.data(), bytes, cudaMemcpyHostToDevice), cudaSuccess);
  __half2 *dst = in_place ? in + offset : out + offset;
  EXPECT_TRUE(plan->run(in + offset, dst, sign, nullptr, &why)) << why;
  std::vector<__half2> y(count);
  EXPECT_EQ(cudaMemcpy(y.data(), dst, bytes, cudaMemcpyDeviceToHost), cudaSuccess);
  cudaFree(in);
  cudaFree(out);
  double err = 0, norm = 0;
  for (size_t i = 0; i < count; ++i) {
    err += std::norm(std::complex<double>(__low2float(y[i]), __high2float(y[i])) - ref[i]);
    norm += std::norm(ref[i]);
  }
  const double rel = std::sqrt(err / norm);
  return std::isnan(rel) ? 1 : rel;
}

void check(const std::vector<int> &n, long long batch, size_t offset = 0) {
  std::string name;
  for (int v : n) name += (name.empty() ? "" : "x") + std::to_string(v);
  for (int sign : {-1, 1})
    for (bool in_place : {false, true}) {
      const double e = error(n, batch, sign, in_place, offset);
      EXPECT_LE(e, kTolerance) << name << " batch " << batch << " sign " << sign << (in_place ? " in place" : "")
                               << " offset " << offset;
      std::printf("%s batch %lld sign %+d %s offset %zu: %.2e\n", name.c_str(), batch, sign,
                  in_place ? "in place" : "out of place", offset, e);
    }
}

// 8192 / n transforms fill a block of rows; 3 blocks and one more.
TEST_F(Fp16, OneD) {
  for (int n : {256, 512, 1024, 2048, 4096}) check({n}, 3 * (8192 / n) + 1);
}

TEST_F(Fp16, TwoD) {
  check({256, 512}, 3);
  check({1024, 1024}, 1);
  check({4096, 2048}, 1);
  check({2048, 4096}, 1);
}

// Arrays 4 bytes past 16-byte alignment take the one-value-a-thread kernels.
TEST_F(Fp16, Unaligned) {
  for (int n : {256, 512, 1024, 2048, 4096}) check({n}, 8192 / n + 1, 1);
  check({512, 1024}, 2, 1);
  check({256, 256, 256}, 1, 1);
}

TEST_F(Fp16, ThreeD) {
  check({256, 256, 512}, 1);
  check({512, 256, 256}, 2);
}

// Sizes and ranks are checked before the device, so this runs anywhere.
TEST(Fp16Plan, RefusesWithReason) {
  for (const std::vector<int> &n : std::vector<std::vector<int>>{{128}, {300}, {8192}, {256, 1000}, {}, {256, 256, 256, 256}}) {
    std::string why;
    EXPECT_FALSE(Fp16Plan::create(n, 1, &why));
    EXPECT_NE(why.find("fp16 kernels: "), std::string::npos) << why;
  }
  std::string why;
  EXPECT_FALSE(Fp16Plan::create({1024}, 0, &why));
  EXPECT_NE(why.find("batch"), std::string::npos) << why;
}

}  // namespace
