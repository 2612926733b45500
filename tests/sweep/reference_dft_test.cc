// Self-checks of the long-double oracle, without FFTW: the complex DFT
// against its defining sum and sign convention, r2c/c2r against the complex
// DFT, and every r2r kind against the complex DFT of the symmetric
// extension the FFTW manual describes (or, for the "inverse" kinds, as the
// scaled inverse of an already checked kind).
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "reference_dft.h"

namespace sweep {
namespace ref {
namespace {

constexpr Real kPi = 3.141592653589793238462643383279502884197L;
constexpr Real kTol = 1e-15L;  // long double oracle vs itself, sizes <= 64

std::vector<Real> random_reals(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-0.5, 0.5);
  std::vector<Real> v(n);
  for (Real& x : v) x = u(rng);
  return v;
}

std::vector<Complex> random_complex(std::size_t n, unsigned seed) {
  std::vector<Real> a = random_reals(2 * n, seed);
  std::vector<Complex> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = Complex(a[2 * i], a[2 * i + 1]);
  return v;
}

Real max_abs_diff(const std::vector<Complex>& a, const std::vector<Complex>& b) {
  Real m = 0;
  for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, std::abs(a[i] - b[i]));
  return m;
}
Real max_abs_diff(const std::vector<Real>& a, const std::vector<Real>& b) {
  Real m = 0;
  for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, std::fabs(a[i] - b[i]));
  return m;
}

// 1-D complex DFT of a real sequence (forward).
std::vector<Complex> dft_of(const std::vector<Real>& x) {
  std::vector<Complex> a(x.begin(), x.end());
  dft({static_cast<std::ptrdiff_t>(x.size())}, -1, a);
  return a;
}

std::vector<Real> r2r_1d(R2r kind, std::vector<Real> x) {
  r2r({static_cast<std::ptrdiff_t>(x.size())}, {kind}, x);
  return x;
}

const std::vector<std::ptrdiff_t> kSizes = {1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 13, 16, 17, 31, 32};

TEST(ReferenceDft, SignConventionOnPureTones) {
  for (std::ptrdiff_t n : {1, 2, 5, 8, 13}) {
    for (std::ptrdiff_t m = 0; m < n; ++m) {
      for (int sign : {-1, +1}) {
        // x_j = exp(-sign 2 pi i m j / n) transforms to n * delta_{k,m}.
        std::vector<Complex> x(static_cast<std::size_t>(n));
        for (std::ptrdiff_t j = 0; j < n; ++j)
          x[j] = std::polar<Real>(1, -sign * 2 * kPi * m * j / n);
        dft({n}, sign, x);
        for (std::ptrdiff_t k = 0; k < n; ++k)
          EXPECT_LT(std::abs(x[k] - Complex(k == m ? n : 0, 0)), kTol * n)
              << "n=" << n << " m=" << m << " k=" << k << " sign=" << sign;
      }
    }
  }
}

TEST(ReferenceDft, MultiDimMatchesDefiningSum) {
  const Shape n = {3, 4, 5};
  std::vector<Complex> x = random_complex(60, 1), y = x;
  dft(n, +1, y);
  for (std::ptrdiff_t k0 = 0; k0 < 3; ++k0)
    for (std::ptrdiff_t k1 = 0; k1 < 4; ++k1)
      for (std::ptrdiff_t k2 = 0; k2 < 5; ++k2) {
        Complex s = 0;
        for (std::ptrdiff_t j0 = 0; j0 < 3; ++j0)
          for (std::ptrdiff_t j1 = 0; j1 < 4; ++j1)
            for (std::ptrdiff_t j2 = 0; j2 < 5; ++j2) {
              Real ph = 2 * kPi * (Real(j0 * k0) / 3 + Real(j1 * k1) / 4 +
                                   Real(j2 * k2) / 5);
              s += x[(j0 * 4 + j1) * 5 + j2] * std::polar<Real>(1, ph);
            }
        EXPECT_LT(std::abs(s - y[(k0 * 4 + k1) * 5 + k2]), 1e-16L * 60);
      }
}

TEST(ReferenceDft, ForwardThenBackwardIsNTimesIdentity) {
  for (const Shape& n : {Shape{7}, Shape{4, 6}, Shape{3, 5, 2}, Shape{2, 3, 1, 4}}) {
    std::ptrdiff_t N = product(n);
    std::vector<Complex> x = random_complex(static_cast<std::size_t>(N), 2), y = x;
    dft(n, -1, y);
    dft(n, +1, y);
    for (Complex& z : y) z /= static_cast<Real>(N);
    EXPECT_LT(max_abs_diff(x, y), kTol);
  }
}

TEST(ReferenceDft, R2cIsHalfOfComplexDft) {
  for (const Shape& n : {Shape{1}, Shape{8}, Shape{9}, Shape{3, 6}, Shape{4, 5},
                         Shape{2, 3, 7}, Shape{3, 2, 2, 4}}) {
    std::ptrdiff_t N = product(n);
    std::vector<Real> x = random_reals(static_cast<std::size_t>(N), 3);
    std::vector<Complex> full(x.begin(), x.end());
    dft(n, -1, full);
    std::vector<Complex> half = r2c(n, x);
    const std::ptrdiff_t nl = n.back(), hl = nl / 2 + 1;
    ASSERT_EQ(static_cast<std::ptrdiff_t>(half.size()), N / nl * hl);
    for (std::ptrdiff_t r = 0; r < N / nl; ++r)
      for (std::ptrdiff_t k = 0; k < hl; ++k)
        EXPECT_LT(std::abs(half[r * hl + k] - full[r * nl + k]), kTol);
  }
}

TEST(ReferenceDft, C2rInvertsR2c) {
  for (const Shape& n : {Shape{1}, Shape{2}, Shape{10}, Shape{11}, Shape{4, 4},
                         Shape{5, 3}, Shape{2, 3, 4}, Shape{3, 1, 2, 5}}) {
    std::ptrdiff_t N = product(n);
    std::vector<Real> x = random_reals(static_cast<std::size_t>(N), 4);
    std::vector<Real> y = c2r(n, r2c(n, x));
    for (Real& v : y) v /= static_cast<Real>(N);
    EXPECT_LT(max_abs_diff(x, y), kTol);
  }
}

TEST(ReferenceDft, C2rOfHermitianHalfIsFullInverseDft) {
  for (const Shape& n : {Shape{6}, Shape{7}, Shape{4, 6}, Shape{5, 4}, Shape{3, 4, 2}}) {
    const Shape h = half_shape(n);
    std::vector<Complex> X = random_complex(static_cast<std::size_t>(product(h)), 5);
    make_hermitian(n, X);
    // Full spectrum from the half by X[-k] = conj(X[k]).
    const std::size_t r = n.size();
    const std::ptrdiff_t N = product(n);
    std::vector<Complex> full(static_cast<std::size_t>(N));
    std::vector<std::ptrdiff_t> k(r);
    for (std::ptrdiff_t lin = 0; lin < N; ++lin) {
      std::ptrdiff_t rem = lin;
      for (std::size_t d = r; d-- > 0;) {
        k[d] = rem % n[d];
        rem /= n[d];
      }
      bool mirrored = k[r - 1] >= h[r - 1];
      std::ptrdiff_t src = 0;
      for (std::size_t d = 0; d < r; ++d) {
        std::ptrdiff_t kd = mirrored ? (n[d] - k[d]) % n[d] : k[d];
        src = src * h[d] + kd;
      }
      full[lin] = mirrored ? std::conj(X[src]) : X[src];
    }
    dft(n, +1, full);
    std::vector<Real> y = c2r(n, X);
    for (std::ptrdiff_t i = 0; i < N; ++i) {
      EXPECT_LT(std::fabs(full[i].imag()), kTol * N);
      EXPECT_LT(std::fabs(full[i].real() - y[i]), kTol * N);
    }
  }
}

TEST(ReferenceDft, R2hcIsHalfcomplexDft) {
  for (std::ptrdiff_t n : kSizes) {
    std::vector<Real> x = random_reals(static_cast<std::size_t>(n), 6);
    std::vector<Complex> f = dft_of(x);
    std::vector<Real> y = r2r_1d(R2r::kR2HC, x);
    for (std::ptrdiff_t k = 0; k <= n / 2; ++k) EXPECT_LT(std::fabs(y[k] - f[k].real()), kTol);
    for (std::ptrdiff_t k = 1; k < (n + 1) / 2; ++k)
      EXPECT_LT(std::fabs(y[n - k] - f[k].imag()), kTol);
  }
}

TEST(ReferenceDft, DhtIsRealMinusImagOfDft) {
  for (std::ptrdiff_t n : kSizes) {
    std::vector<Real> x = random_reals(static_cast<std::size_t>(n), 7);
    std::vector<Complex> f = dft_of(x);
    std::vector<Real> y = r2r_1d(R2r::kDHT, x);
    for (std::ptrdiff_t k = 0; k < n; ++k)
      EXPECT_LT(std::fabs(y[k] - (f[k].real() - f[k].imag())), kTol);
  }
}

// Y = factor * DFT_N(ext)[k*step + first] for the symmetric extension ext.
void expect_extension(R2r kind, std::ptrdiff_t n, std::ptrdiff_t N,
                      bool odd, std::ptrdiff_t (*pos)(std::ptrdiff_t),
                      std::ptrdiff_t step, std::ptrdiff_t first) {
  std::vector<Real> x = random_reals(static_cast<std::size_t>(n), 8);
  std::vector<Real> ext(static_cast<std::size_t>(N), 0);
  for (std::ptrdiff_t j = 0; j < n; ++j) {
    const std::ptrdiff_t p = pos(j) % N, mirror = (N - p) % N;
    ext[p] += x[j];
    if (mirror != p) ext[mirror] += odd ? -x[j] : x[j];
  }
  std::vector<Complex> f = dft_of(ext);
  std::vector<Real> y = r2r_1d(kind, x);
  for (std::ptrdiff_t k = 0; k < n; ++k) {
    Complex want = f[k * step + first];
    // even extension: real DFT; odd extension: DFT = -i * Y.
    Real w = odd ? -want.imag() : want.real();
    EXPECT_LT(std::fabs(y[k] - w), kTol * N) << r2r_name(kind) << " n=" << n << " k=" << k;
  }
}

TEST(ReferenceDft, EvenAndOddKindsAreDftsOfSymmetricExtensions) {
  for (std::ptrdiff_t n : kSizes) {
    if (n >= 2)  // REDFT00: even extension of period 2(n-1) around 0 and n-1
      expect_extension(R2r::kREDFT00, n, 2 * (n - 1), false,
                       [](std::ptrdiff_t j) { return j; }, 1, 0);
    // RODFT00: odd extension of period 2(n+1), x_j at j+1, output k at k+1.
    expect_extension(R2r::kRODFT00, n, 2 * (n + 1), true,
                     [](std::ptrdiff_t j) { return j + 1; }, 1, 1);
    // REDFT10 / RODFT10: x_j at 2j+1 of period 4n; outputs k / k+1.
    expect_extension(R2r::kREDFT10, n, 4 * n, false,
                     [](std::ptrdiff_t j) { return 2 * j + 1; }, 1, 0);
    expect_extension(R2r::kRODFT10, n, 4 * n, true,
                     [](std::ptrdiff_t j) { return 2 * j + 1; }, 1, 1);
    // REDFT11 / RODFT11: x_j at 2j+1 of period 8n; output k at 2k+1.
    expect_extension(R2r::kREDFT11, n, 8 * n, false,
                     [](std::ptrdiff_t j) { return 2 * j + 1; }, 2, 1);
    expect_extension(R2r::kRODFT11, n, 8 * n, true,
                     [](std::ptrdiff_t j) { return 2 * j + 1; }, 2, 1);
  }
}

TEST(ReferenceDft, InverseKindsAreScaledInverses) {
  struct Pair {
    R2r fwd, inv;
    std::ptrdiff_t (*scale)(std::ptrdiff_t);
    std::ptrdiff_t min_n;
  };
  const Pair pairs[] = {
      {R2r::kR2HC, R2r::kHC2R, [](std::ptrdiff_t n) { return n; }, 1},
      {R2r::kDHT, R2r::kDHT, [](std::ptrdiff_t n) { return n; }, 1},
      {R2r::kREDFT10, R2r::kREDFT01, [](std::ptrdiff_t n) { return 2 * n; }, 1},
      {R2r::kRODFT10, R2r::kRODFT01, [](std::ptrdiff_t n) { return 2 * n; }, 1},
      {R2r::kREDFT11, R2r::kREDFT11, [](std::ptrdiff_t n) { return 2 * n; }, 1},
      {R2r::kRODFT11, R2r::kRODFT11, [](std::ptrdiff_t n) { return 2 * n; }, 1},
      {R2r::kREDFT00, R2r::kREDFT00, [](std::ptrdiff_t n) { return 2 * (n - 1); }, 2},
      {R2r::kRODFT00, R2r::kRODFT00, [](std::ptrdiff_t n) { return 2 * (n + 1); }, 1},
  };
  for (const Pair& p : pairs) {
    for (std::ptrdiff_t n : kSizes) {
      if (n < p.min_n) continue;
      std::vector<Real> x = random_reals(static_cast<std::size_t>(n), 9);
      // both orders: inv(fwd(x)) and fwd(inv(x))
      std::vector<Real> a = r2r_1d(p.inv, r2r_1d(p.fwd, x));
      std::vector<Real> b = r2r_1d(p.fwd, r2r_1d(p.inv, x));
      for (Real& v : a) v /= static_cast<Real>(p.scale(n));
      for (Real& v : b) v /= static_cast<Real>(p.scale(n));
      EXPECT_LT(max_abs_diff(x, a), kTol * n) << r2r_name(p.fwd) << " n=" << n;
      EXPECT_LT(max_abs_diff(x, b), kTol * n) << r2r_name(p.inv) << " n=" << n;
    }
  }
}

TEST(ReferenceDft, MultiDimR2rIsSeparable) {
  const Shape n = {3, 4, 5};
  const std::vector<R2r> kinds = {R2r::kREDFT11, R2r::kHC2R, R2r::kRODFT00};
  std::vector<Real> x = random_reals(60, 10), y = x;
  r2r(n, kinds, y);
  // Apply the 1-D transforms line by line, dimension by dimension.
  std::vector<Real> z = x;
  const std::ptrdiff_t strides[] = {20, 5, 1};
  for (std::size_t d = 0; d < 3; ++d) {
    for (std::ptrdiff_t base = 0; base < 60; ++base) {
      // base must be the first element of its line along d
      if ((base / strides[d]) % n[d] != 0) continue;
      std::vector<Real> line;
      for (std::ptrdiff_t j = 0; j < n[d]; ++j) line.push_back(z[base + j * strides[d]]);
      line = r2r_1d(kinds[d], line);
      for (std::ptrdiff_t j = 0; j < n[d]; ++j) z[base + j * strides[d]] = line[j];
    }
  }
  EXPECT_LT(max_abs_diff(y, z), kTol * 60);
}

}  // namespace
}  // namespace ref
}  // namespace sweep
