// Valid-but-unusual requests outside the main sweep, each checked against
// the real FFTW 3.3.10 first: rank-0 transforms (strided copies), empty
// howmany, negative strides, repeated execution of one plan, and the 1-D c2r
// ignoring the imaginary parts of its DC and Nyquist inputs.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "fftw_traits.h"
#include "precisions.h"
#include "reference_dft.h"
#include "tolerance.h"

namespace sweep {
namespace {

template <class T>
class EdgeCases : public ::testing::Test {
 public:
  using F = FftwApi<T>;
  using C = typename F::complex;
  using Plan = typename F::plan;

  // fftw_malloc'ed scalars, NaN-poisoned.
  struct Array {
    explicit Array(std::size_t n) : n(n), p(F::alloc_real(n)) {
      for (std::size_t i = 0; i < n; ++i) p[i] = std::numeric_limits<T>::quiet_NaN();
    }
    ~Array() { F::free(p); }
    Array(const Array&) = delete;
    Array& operator=(const Array&) = delete;
    C* c() const { return reinterpret_cast<C*>(p); }
    std::vector<unsigned char> bytes() const {
      const unsigned char* b = reinterpret_cast<const unsigned char*>(p);
      return std::vector<unsigned char>(b, b + n * sizeof(T));
    }
    std::size_t n;
    T* p;
  };

  T rnd() { return static_cast<T>(u_(rng_)); }

  // relative L2 error of got (scalars) against want
  static double rel_err(const std::vector<T>& got, const std::vector<ref::Real>& want) {
    ref::Real num = 0, den = 0;
    for (std::size_t i = 0; i < got.size(); ++i) {
      ref::Real d = static_cast<ref::Real>(got[i]) - want[i];
      num += d * d;
      den += want[i] * want[i];
    }
    return static_cast<double>(std::sqrt(num / den));
  }

  std::mt19937_64 rng_{std::random_device{}()};
  std::uniform_real_distribution<double> u_{-0.5, 0.5};
};

TYPED_TEST_SUITE(EdgeCases, Precisions, PrecisionNames);

// c2r reads only the real parts of X[0] and (n even) X[n/2]; their
// imaginary parts do not change the output (FFTW behaviour, all planners).
TYPED_TEST(EdgeCases, C2r1dIgnoresImagOfDcAndNyquist) {
  using T = TypeParam;
  using F = FftwApi<T>;
  for (int n : {1, 2, 3, 4, 7, 8, 16, 31, 64}) {
    for (bool inplace : {false, true}) {
      for (unsigned flags : {unsigned{FFTW_ESTIMATE}, unsigned{FFTW_MEASURE}}) {
        SCOPED_TRACE("n=" + std::to_string(n) + (inplace ? " in-place" : " out-of-place") +
                     (flags == FFTW_MEASURE ? " MEASURE" : " ESTIMATE"));
        const int h = n / 2 + 1;
        typename TestFixture::Array in(2 * static_cast<std::size_t>(h));
        typename TestFixture::Array sep(static_cast<std::size_t>(n));
        T* out = inplace ? in.p : sep.p;
        typename F::plan p = F::plan_dft_c2r_1d(n, in.c(), out, flags);
        ASSERT_NE(p, nullptr);
        std::vector<ref::Complex> X;
        for (int k = 0; k < h; ++k) {
          T re = this->rnd(), im = this->rnd();
          in.p[2 * k] = re;
          in.p[2 * k + 1] = im;  // DC / Nyquist imaginary parts too
          X.emplace_back(re, im);
        }
        F::execute(p);
        std::vector<ref::Real> want = ref::c2r({n}, X);  // ignores them
        std::vector<T> got(out, out + n);
        EXPECT_LE(this->rel_err(got, want), tolerance(F::epsilon, n));
        F::destroy_plan(p);
      }
    }
  }
}

// Rank 0: a strided copy over the howmany dims (c2c: either sign; r2r; r2c
// writes imaginary parts 0).
TYPED_TEST(EdgeCases, RankZeroIsStridedCopy) {
  using T = TypeParam;
  using F = FftwApi<T>;
  const fftw_iodim h[2] = {{3, 1, 4}, {2, 5, 1}};  // in: i + 5j, out: 4i + j
  const fftw_iodim64 h64[2] = {{3, 1, 4}, {2, 5, 1}};
  for (int variant = 0; variant < 4; ++variant) {
    SCOPED_TRACE("variant " + std::to_string(variant));
    typename TestFixture::Array in(64), out(64);
    for (std::size_t i = 0; i < 64; ++i) in.p[i] = this->rnd();
    typename F::plan p = nullptr;
    bool complex_in = true, complex_out = true;
    if (variant == 0)
      p = F::plan_guru_dft(0, nullptr, 2, h, in.c(), out.c(), FFTW_FORWARD, FFTW_ESTIMATE);
    else if (variant == 1)
      p = F::plan_guru64_dft(0, nullptr, 2, h64, in.c(), out.c(), FFTW_BACKWARD, FFTW_ESTIMATE);
    else if (variant == 2) {
      p = F::plan_guru_r2r(0, nullptr, 2, h, in.p, out.p, nullptr, FFTW_ESTIMATE);
      complex_in = complex_out = false;
    } else {
      p = F::plan_guru64_dft_r2c(0, nullptr, 2, h64, in.p, out.c(), FFTW_ESTIMATE);
      complex_in = false;
    }
    ASSERT_NE(p, nullptr);
    const auto before = out.bytes();
    F::execute(p);
    const auto after = out.bytes();
    std::vector<bool> written(64, false);
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 2; ++j) {
        const int src = i + 5 * j, dst = 4 * i + j;
        if (complex_out) {
          T want_re = complex_in ? in.p[2 * src] : in.p[src];
          T want_im = complex_in ? in.p[2 * src + 1] : T(0);
          EXPECT_EQ(out.p[2 * dst], want_re);
          EXPECT_EQ(out.p[2 * dst + 1], want_im);
          written[2 * dst] = written[2 * dst + 1] = true;
        } else {
          EXPECT_EQ(out.p[dst], in.p[src]);
          written[dst] = true;
        }
      }
    }
    for (std::size_t s = 0; s < 64; ++s) {
      if (written[s]) continue;
      EXPECT_EQ(0, std::memcmp(&after[s * sizeof(T)], &before[s * sizeof(T)], sizeof(T)))
          << "scalar " << s << " written";
    }
    F::destroy_plan(p);
  }
}

// howmany = 0 (advanced) or a howmany dim of n = 0 (guru): a valid plan that
// does nothing.
TYPED_TEST(EdgeCases, EmptyHowmanyIsNoOp) {
  using T = TypeParam;
  using F = FftwApi<T>;
  const int n[1] = {8};
  const fftw_iodim d = {8, 1, 1}, h0 = {0, 8, 8};
  const fftw_iodim64 d64 = {8, 1, 1}, h064 = {0, 8, 8};
  const fftw_r2r_kind k = FFTW_REDFT10;
  for (int variant = 0; variant < 6; ++variant) {
    for (unsigned flags : {unsigned{FFTW_ESTIMATE}, unsigned{FFTW_MEASURE}}) {
      SCOPED_TRACE("variant " + std::to_string(variant));
      typename TestFixture::Array in(64), out(64);
      typename F::plan p = nullptr;
      switch (variant) {
        case 0: p = F::plan_many_dft(1, n, 0, in.c(), nullptr, 1, 8, out.c(), nullptr, 1, 8,
                                     FFTW_FORWARD, flags); break;
        case 1: p = F::plan_many_dft_r2c(1, n, 0, in.p, nullptr, 1, 8, out.c(), nullptr, 1, 5,
                                         flags); break;
        case 2: p = F::plan_many_r2r(1, n, 0, in.p, nullptr, 1, 8, out.p, nullptr, 1, 8, &k,
                                     flags); break;
        case 3: p = F::plan_guru_dft(1, &d, 1, &h0, in.c(), out.c(), FFTW_BACKWARD, flags); break;
        case 4: p = F::plan_guru64_dft_c2r(1, &d64, 1, &h064, in.c(), out.p, flags); break;
        case 5: p = F::plan_guru64_r2r(1, &d64, 1, &h064, in.p, out.p, &k, flags); break;
      }
      ASSERT_NE(p, nullptr);
      for (std::size_t i = 0; i < 64; ++i) in.p[i] = this->rnd();
      const auto in_before = in.bytes(), out_before = out.bytes();
      F::execute(p);
      EXPECT_TRUE(in.bytes() == in_before);
      EXPECT_TRUE(out.bytes() == out_before);
      F::destroy_plan(p);
    }
  }
}

// Negative strides (guru64): the input and the output read backwards.
TYPED_TEST(EdgeCases, NegativeStrides) {
  using T = TypeParam;
  using F = FftwApi<T>;
  for (int n : {5, 8, 12}) {
    for (bool r2r : {false, true}) {
      SCOPED_TRACE("n=" + std::to_string(n) + (r2r ? " r2r REDFT10" : " c2c"));
      const int w = r2r ? 1 : 2;  // scalars per element
      typename TestFixture::Array in(static_cast<std::size_t>(w * n)),
          out(static_cast<std::size_t>(w * n));
      // logical element j lives at index n-1-j (both sides)
      const fftw_iodim64 d = {n, -1, -1};
      T* in_last = in.p + w * (n - 1);
      T* out_last = out.p + w * (n - 1);
      const fftw_r2r_kind k = FFTW_REDFT10;
      typename F::plan p =
          r2r ? F::plan_guru64_r2r(1, &d, 0, nullptr, in_last, out_last, &k, FFTW_ESTIMATE)
              : F::plan_guru64_dft(1, &d, 0, nullptr, reinterpret_cast<typename F::complex*>(in_last),
                                   reinterpret_cast<typename F::complex*>(out_last), FFTW_FORWARD,
                                   FFTW_ESTIMATE);
      ASSERT_NE(p, nullptr);
      for (std::size_t i = 0; i < in.n; ++i) in.p[i] = this->rnd();
      F::execute(p);
      std::vector<ref::Real> want;
      std::vector<T> got;
      if (r2r) {
        std::vector<ref::Real> x;
        for (int j = 0; j < n; ++j) x.push_back(in.p[n - 1 - j]);
        ref::r2r({n}, {ref::R2r::kREDFT10}, x);
        want = x;
        for (int j = 0; j < n; ++j) got.push_back(out.p[n - 1 - j]);
      } else {
        std::vector<ref::Complex> x;
        for (int j = 0; j < n; ++j) x.emplace_back(in.p[2 * (n - 1 - j)], in.p[2 * (n - 1 - j) + 1]);
        ref::dft({n}, -1, x);
        for (const ref::Complex& z : x) {
          want.push_back(z.real());
          want.push_back(z.imag());
        }
        for (int j = 0; j < n; ++j) {
          got.push_back(out.p[2 * (n - 1 - j)]);
          got.push_back(out.p[2 * (n - 1 - j) + 1]);
        }
      }
      EXPECT_LE(this->rel_err(got, want), tolerance(F::epsilon, n));
      F::destroy_plan(p);
    }
  }
}

// A plan executes any number of times, each time on the arrays' current
// contents.
TYPED_TEST(EdgeCases, PlanIsReusable) {
  using T = TypeParam;
  using F = FftwApi<T>;
  const int n0 = 6, n1 = 10;
  typename TestFixture::Array in(2 * n0 * n1), out(2 * n0 * n1);
  typename F::plan p = F::plan_dft_2d(n0, n1, in.c(), out.c(), FFTW_BACKWARD, FFTW_MEASURE);
  ASSERT_NE(p, nullptr);
  for (int round = 0; round < 3; ++round) {
    std::vector<ref::Complex> x;
    for (int i = 0; i < n0 * n1; ++i) {
      in.p[2 * i] = this->rnd();
      in.p[2 * i + 1] = this->rnd();
      x.emplace_back(in.p[2 * i], in.p[2 * i + 1]);
    }
    F::execute(p);
    ref::dft({n0, n1}, +1, x);
    std::vector<ref::Real> want;
    for (const ref::Complex& z : x) {
      want.push_back(z.real());
      want.push_back(z.imag());
    }
    std::vector<T> got(out.p, out.p + 2 * n0 * n1);
    EXPECT_LE(this->rel_err(got, want), tolerance(F::epsilon, n0 * n1)) << "round " << round;
  }
  F::destroy_plan(p);
}

}  // namespace
}  // namespace sweep
