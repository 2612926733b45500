// Sizes past 32 bits: a c2c f32 problem of more than
// 2^31 elements either runs correctly (on the GPU, or on the real FFTW it
// falls back on), never on a wrapped size. Each test needs 32 GiB of host
// memory and the GPU; it skips without a GPU, and unless
// GPUFFTW_TEST_LARGE=1 (ctest: large_gpu, label gpu; tools/gpu-hardening.sh
// large). Inputs are pure tones, whose transforms are known exactly: a
// spike of height N at one bin and zero elsewhere, so every output is
// checked without a reference transform.
#include <fftw3.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "gpufftw/gpufftw.h"

namespace {

using cf = std::complex<float>;

// GPUFFTW_TEST_LARGE_SHRINK=k: sizes 2^k times smaller, with or without a
// GPU (the test's own arithmetic, checked where there is none).
int shrink() {
  const char *e = std::getenv("GPUFFTW_TEST_LARGE_SHRINK");
  return e ? std::atoi(e) : 0;
}

bool wanted(std::string *why) {
  if (shrink() > 0) return true;
  if (!std::getenv("GPUFFTW_TEST_LARGE")) return *why = "set GPUFFTW_TEST_LARGE=1 (32 GiB of host memory)", false;
  if (!gpufftw_gpu_available()) return *why = "no usable GPU", false;
  return true;
}

std::vector<std::complex<double>> tone_table(int64_t n) {
  std::vector<std::complex<double>> t(static_cast<size_t>(n));
  const double pi = std::acos(-1.0);
  for (int64_t j = 0; j < n; ++j) t[static_cast<size_t>(j)] = std::polar(1.0, 2 * pi * static_cast<double>(j) / n);
  return t;
}

int threads() { return static_cast<int>(std::max(1u, std::thread::hardware_concurrency())); }

// Runs f(thread, begin, end) over [0, count) on every core.
template <class F>
void parallel(int64_t count, F f) {
  const int64_t t_count = threads();
  std::vector<std::thread> pool;
  for (int64_t t = 0; t < t_count; ++t)
    pool.emplace_back([=] { f(static_cast<size_t>(t), count * t / t_count, count * (t + 1) / t_count); });
  for (auto &th : pool) th.join();
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

class Large : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    if (!wanted(&why)) {
      GTEST_SKIP() << why;
    }
  }
};

// 2^21 + 3 transforms of 1024 points, one after the other: 2^31 + 3072
// elements, the last ones past every 32-bit offset. Transform b is the
// tone of frequency b % 1024 (forward: a spike of 1024 at that bin).
TEST_F(Large, BatchPast2To31ElementsF32) {
  const int n = 1024, howmany = (1 << (21 - shrink())) + 3;
  const int64_t total = int64_t(n) * howmany;
  if (shrink() == 0) {
    ASSERT_GT(total, int64_t(1) << 31);
  }
  fftwf_complex *in = static_cast<fftwf_complex *>(std::malloc(sizeof(fftwf_complex) * total));
  fftwf_complex *out = static_cast<fftwf_complex *>(std::malloc(sizeof(fftwf_complex) * total));
  ASSERT_TRUE(in && out) << "32 GiB of host memory";
  const auto table = tone_table(n);
  parallel(howmany, [&](size_t, int64_t b0, int64_t b1) {
    for (int64_t b = b0; b < b1; ++b)
      for (int j = 0; j < n; ++j) {
        const auto v = table[static_cast<size_t>((b % n) * j % n)];
        in[b * n + j][0] = static_cast<float>(v.real());
        in[b * n + j][1] = static_cast<float>(v.imag());
      }
  });
  std::memset(out, 0xff, sizeof(fftwf_complex) * total);  // NaN: what is not written shows
  auto t0 = std::chrono::steady_clock::now();
  fftwf_plan p = fftwf_plan_many_dft(1, &n, howmany, in, nullptr, 1, n, out, nullptr, 1, n, FFTW_FORWARD,
                                     FFTW_ESTIMATE);
  ASSERT_NE(p, nullptr);
  std::printf("plan: %.2f s on %s (%s)\n", seconds_since(t0), gpufftw_plan_where(p), gpufftw_plan_why(p));
  t0 = std::chrono::steady_clock::now();
  fftwf_execute(p);
  std::printf("execute: %.2f s\n", seconds_since(t0));
  std::vector<double> worst(static_cast<size_t>(threads()), 0);
  std::vector<int64_t> where(worst.size(), -1);
  parallel(howmany, [&](size_t slot, int64_t b0, int64_t b1) {
    for (int64_t b = b0; b < b1; ++b)
      for (int k = 0; k < n; ++k) {
        const double want = k == b % n ? n : 0;
        const double e = std::hypot(out[b * n + k][0] - want, out[b * n + k][1]);
        if (!(e <= worst[slot])) worst[slot] = std::isnan(e) ? INFINITY : e, where[slot] = b * n + k;
      }
  });
  double err = 0;
  int64_t at = -1;
  for (size_t i = 0; i < worst.size(); ++i)
    if (worst[i] > err) err = worst[i], at = where[i];
  std::printf("largest error %.3g (relative to %d: %.3g) at element %lld\n", err, n, err / n,
              static_cast<long long>(at));
  EXPECT_LT(err / n, 1e-5) << "at element " << at << (at >= (int64_t(1) << 31) ? " (past 2^31)" : "");
  fftwf_destroy_plan(p);
  std::free(in);
  std::free(out);
}

// One 2-D transform of 2^16 x 2^15 = 2^31 points: the tone (k0, k1) gives
// a spike of 2^31 at (k0, k1).
TEST_F(Large, OneTransformOf2To31PointsF32) {
  const int n0 = 1 << (16 - shrink()), n1 = 1 << 15, k0 = 12345 % n0, k1 = 321;
  const int64_t total = int64_t(n0) * n1;
  fftwf_complex *in = static_cast<fftwf_complex *>(std::malloc(sizeof(fftwf_complex) * total));
  fftwf_complex *out = static_cast<fftwf_complex *>(std::malloc(sizeof(fftwf_complex) * total));
  ASSERT_TRUE(in && out) << "32 GiB of host memory";
  const auto t0s = tone_table(n0), t1s = tone_table(n1);
  parallel(n0, [&](size_t, int64_t a0, int64_t a1) {
    for (int64_t a = a0; a < a1; ++a)
      for (int64_t b = 0; b < n1; ++b) {
        const auto v = t0s[static_cast<size_t>(k0 * a % n0)] * t1s[static_cast<size_t>(k1 * b % n1)];
        in[a * n1 + b][0] = static_cast<float>(v.real());
        in[a * n1 + b][1] = static_cast<float>(v.imag());
      }
  });
  std::memset(out, 0xff, sizeof(fftwf_complex) * total);
  auto t0 = std::chrono::steady_clock::now();
  fftwf_plan p = fftwf_plan_dft_2d(n0, n1, in, out, FFTW_FORWARD, FFTW_ESTIMATE);
  ASSERT_NE(p, nullptr);
  std::printf("plan: %.2f s on %s (%s)\n", seconds_since(t0), gpufftw_plan_where(p), gpufftw_plan_why(p));
  t0 = std::chrono::steady_clock::now();
  fftwf_execute(p);
  std::printf("execute: %.2f s\n", seconds_since(t0));
  const double height = static_cast<double>(total);
  std::vector<double> worst(static_cast<size_t>(threads()), 0);
  parallel(n0, [&](size_t slot, int64_t a0, int64_t a1) {
    for (int64_t a = a0; a < a1; ++a)
      for (int64_t b = 0; b < n1; ++b) {
        const double want = a == k0 && b == k1 ? height : 0;
        const double e = std::hypot(out[a * n1 + b][0] - want, out[a * n1 + b][1]);
        if (!(e <= worst[slot])) worst[slot] = std::isnan(e) ? INFINITY : e;
      }
  });
  double err = 0;
  for (double w : worst) err = std::max(err, w);
  std::printf("largest error %.3g, relative to the spike %.3g\n", err, err / height);
  // f32 over 2^31 points: the spike's error grows like eps * sqrt(N) * log N.
  EXPECT_LT(err / height, 1e-4);
  fftwf_destroy_plan(p);
  std::free(in);
  std::free(out);
}

}  // namespace
