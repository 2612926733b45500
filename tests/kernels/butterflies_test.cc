// The kernels' register DFTs (engine/kernels/butterflies.cuh) and their
// constants (engine/kernels/roots.h) on the host, where they compile too: every length
// 2..16 in both directions against a direct DFT in long double. No GPU.
#include <cuda_runtime_api.h>  // __host__ __device__
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <utility>

#include "engine/kernels/butterflies.cuh"

namespace {

using gpufftw::engine::kernels::dft;
using gpufftw::engine::kernels::multiply;
using gpufftw::engine::kernels::root_cos;
using gpufftw::engine::kernels::root_sin;
using cld = std::complex<long double>;
constexpr long double kPi = 3.141592653589793238462643383279502884L;

TEST(Roots, EveryTurnOfEveryLengthUpTo16) {
  for (int r = 2; r <= 16; ++r)
    for (int k = 0; k < 2 * r; ++k) {
      const long double a = 2 * kPi * k / r;
      EXPECT_NEAR(root_cos(k, r), static_cast<double>(std::cos(a)), 2.3e-16) << k << "/" << r;
      EXPECT_NEAR(root_sin(k, r), static_cast<double>(std::sin(a)), 2.3e-16) << k << "/" << r;
    }
}

// Largest error of dft<N> in T over a random-looking input, relative to the
// output's largest magnitude.
template <int N, bool FWD, class T>
double dft_error() {
  T re[N], im[N];
  cld x[N];
  for (int i = 0; i < N; ++i) {
    re[i] = static_cast<T>(std::sin(1.3 * i + 0.2 * N));
    im[i] = static_cast<T>(std::cos(0.7 * i * i - N));
    x[i] = cld(re[i], im[i]);
  }
  dft<N, FWD>(re, im);
  long double worst = 0, scale = 0;
  for (int k = 0; k < N; ++k) {
    cld s = 0;
    for (int j = 0; j < N; ++j) s += x[j] * std::polar(1.0L, (FWD ? -2 : 2) * kPi * ((j * k) % N) / N);
    worst = std::max(worst, std::abs(s - cld(re[k], im[k])));
    scale = std::max(scale, std::abs(s));
  }
  return static_cast<double>(worst / scale);
}

template <int... I>
void every_length(std::integer_sequence<int, I...>) {
  auto one = [](auto n) {
    constexpr int N = decltype(n)::value;
    EXPECT_LT((dft_error<N, true, double>()), 4e-16 * N) << "n=" << N << " forward f64";
    EXPECT_LT((dft_error<N, false, double>()), 4e-16 * N) << "n=" << N << " backward f64";
    EXPECT_LT((dft_error<N, true, float>()), 2e-7 * N) << "n=" << N << " forward f32";
    EXPECT_LT((dft_error<N, false, float>()), 2e-7 * N) << "n=" << N << " backward f32";
  };
  (one(std::integral_constant<int, I + 2>{}), ...);
}

TEST(Butterflies, EveryLengthUpTo16BothDirections) { every_length(std::make_integer_sequence<int, 15>{}); }

// The product by a table's root (the twiddles, Bluestein's chirp, the
// four-step twiddles): the complex product, signs and parts in place,
// exact where the parts are small integers.
TEST(Multiply, IsTheComplexProduct) {
  float re = 3, im = -2;
  multiply(re, im, 5.0f, 7.0f);  // (3 - 2i)(5 + 7i) = 29 + 11i
  EXPECT_EQ(re, 29.0f);
  EXPECT_EQ(im, 11.0f);
  for (int k = 0; k < 16; ++k) {
    const double a = 0.37 * k - 1.1, b = std::cos(1.9 * k), c = root_cos(k, 16), s = root_sin(k, 16);
    double x = a, y = b;
    multiply(x, y, c, s);
    const cld want = cld(a, b) * cld(c, s);
    EXPECT_NEAR(x, static_cast<double>(want.real()), 4e-16) << k;
    EXPECT_NEAR(y, static_cast<double>(want.imag()), 4e-16) << k;
  }
}

}  // namespace
