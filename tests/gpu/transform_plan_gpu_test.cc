// Our multi-pass transforms (engine/kernels/transform_plan.h) against FFTW
// double: 1-D four-step sizes, 2-D and 3-D shapes, f32 and f64, forward and
// backward, out of place and in place, batches over one; a length with no
// split is refused. Every test skips, saying so, where there is no usable GPU.
#include <cuda_runtime_api.h>
#include <fftw3.h>
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "engine/kernels/transform_plan.h"
#include "tests/gpu/kernel_tolerance.h"
#include "tests/gpu/usable_gpu.h"

namespace {

using gpufftw::engine::Real;
using gpufftw::engine::kernels::TransformPlan;
using gpufftw::engine::kernels::Variant;

class MultiPass : public UsableGpuTest {};

long long product(const std::vector<long long> &dims) {
  long long p = 1;
  for (long long n : dims) p *= n;
  return p;
}

// Every variant (or the first alone), both directions, out of place and
// in place, against FFTW double; the largest error / (5 eps sqrt(log2 N)).
template <class T>
double check(const std::vector<long long> &dims, long long batch, bool every_variant) {
  const Real real = sizeof(T) == 4 ? Real::F32 : Real::F64;
  const long long n = product(dims);
  const size_t values = static_cast<size_t>(n) * batch, bytes = 2 * sizeof(T) * values;
  std::string name;
  for (long long d : dims) name += (name.empty() ? "" : "x") + std::to_string(d);
  SCOPED_TRACE(name + (sizeof(T) == 4 ? " f32" : " f64") + " batch " + std::to_string(batch));
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-0.5, 0.5);
  std::vector<T> x(2 * values), y(2 * values);
  for (T &v : x) v = static_cast<T>(u(rng));
  std::vector<std::complex<double>> a(values), ref(values);
  T *dev_in = nullptr, *dev_out = nullptr;
  if (cudaMalloc(reinterpret_cast<void **>(&dev_in), bytes) != cudaSuccess ||
      cudaMalloc(reinterpret_cast<void **>(&dev_out), bytes) != cudaSuccess) {
    ADD_FAILURE() << "cudaMalloc of " << bytes << " bytes";
    cudaFree(dev_in);
    return 1e300;
  }
  std::vector<Variant> variants = TransformPlan::variants(dims, real);
  EXPECT_FALSE(variants.empty());
  if (!every_variant && !variants.empty()) variants.resize(1);
  const double tol = kernel_tolerance<T>(n);
  std::vector<int> rank_n(dims.begin(), dims.end());
  double worst = 0;
  for (int sign : {-1, 1}) {
    for (size_t i = 0; i < values; ++i) a[i] = {x[2 * i], x[2 * i + 1]};
    fftw_plan p = fftw_plan_many_dft(static_cast<int>(dims.size()), rank_n.data(), static_cast<int>(batch),
                                     reinterpret_cast<fftw_complex *>(a.data()), nullptr, 1, static_cast<int>(n),
                                     reinterpret_cast<fftw_complex *>(ref.data()), nullptr, 1, static_cast<int>(n),
                                     sign, FFTW_ESTIMATE);
    fftw_execute(p);
    fftw_destroy_plan(p);
    double norm = 0;
    for (size_t i = 0; i < values; ++i) norm += std::norm(ref[i]);
    for (const Variant &v : variants) {
      std::string why;
      auto plan = TransformPlan::create(dims, real, batch, v, &why);
      if (!plan) {
        ADD_FAILURE() << v.name() << ": " << why;
        continue;
      }
      for (bool in_place : {false, true}) {
        T *out = in_place ? dev_in : dev_out;
        EXPECT_EQ(cudaMemset(dev_out, 0xff, bytes), cudaSuccess);
        EXPECT_EQ(cudaMemcpy(dev_in, x.data(), bytes, cudaMemcpyHostToDevice), cudaSuccess);
        const bool ran = plan->run(dev_in, out, sign, nullptr, &why);
        EXPECT_TRUE(ran) << plan->describe() << ": " << why;
        const cudaError_t e = cudaMemcpy(y.data(), out, bytes, cudaMemcpyDeviceToHost);
        EXPECT_EQ(e, cudaSuccess) << cudaGetErrorString(e);
        if (!ran || e != cudaSuccess) continue;
        double err = 0;
        for (size_t i = 0; i < values; ++i) err += std::norm(std::complex<double>(y[2 * i], y[2 * i + 1]) - ref[i]);
        double rel = std::sqrt(err / norm);
        if (std::isnan(rel)) rel = 1e300;
        worst = std::max(worst, rel / tol);
        EXPECT_LT(rel, tol) << "sign " << sign << (in_place ? " in place " : " out of place ") << plan->describe();
      }
    }
  }
  cudaFree(dev_in);
  cudaFree(dev_out);
  std::printf("%s %s batch %lld: %zu variants, largest error/tolerance %.3f\n", name.c_str(),
              sizeof(T) == 4 ? "f32" : "f64", batch, variants.size(), worst);
  return worst;
}

TEST_F(MultiPass, FourStepSizes) {
  for (long long n : {8192LL, 12288LL, 10000LL, 19683LL, 65536LL}) {
    check<float>({n}, 3, true);
    check<double>({n}, 3, true);
  }
  for (long long n : {1LL << 20, 1009LL * 4096, 1LL << 24}) {
    check<float>({n}, 1, false);
    check<double>({n}, n > (1 << 22) ? 1 : 2, false);
  }
}

TEST_F(MultiPass, TwoAndThreeDims) {
  for (const std::vector<long long> &dims : std::vector<std::vector<long long>>{
           {64, 64}, {2, 3}, {1000, 768}, {17, 33, 64}, {5, 7, 9}, {64, 64, 64}, {3, 4096}, {4096, 3}}) {
    check<float>(dims, 3, true);
    check<double>(dims, 2, true);
  }
  check<float>({4096, 4096}, 1, false);
  check<double>({256, 256, 256}, 1, false);
}

// A length past 4096 with no split into two of at most 4096 stays on cuFFT.
TEST_F(MultiPass, NoSplitIsRefused) {
  for (long long n : {4099LL, 2LL * 4099, 4097LL * 4096})
    EXPECT_FALSE(TransformPlan::supports({n})) << n;
  std::string why;
  EXPECT_EQ(TransformPlan::create({8198}, Real::F32, 1, Variant{}, &why), nullptr);
  EXPECT_FALSE(why.empty());
  EXPECT_FALSE(TransformPlan::supports({5000, 64}));
  EXPECT_FALSE(TransformPlan::supports({2, 2, 2, 2}));
}

}  // namespace
