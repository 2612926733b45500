// The FP16 tensor-core FFT's index arithmetic replayed on the CPU, no GPU
// needed: the shared-memory map (engine/fp16/tile_map.h), the DFT fragments, and the
// mma.m16n8k16 register layouts as the PTX manual gives them, put together
// as the kernel does, against a direct DFT in double. Values are rounded to
// half wherever the kernel stores them, so the error is close to the
// kernel's too.
#include <cuda_fp16.h>
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <random>
#include <set>
#include <vector>

#include "engine/fp16/dft_fragments.h"
#include "engine/fp16/small_dft.h"
#include "engine/fp16/tile_map.h"

namespace {

using namespace gpufftw::engine::fp16;
using cd = std::complex<double>;

double round_half(double v) { return __half2float(__float2half_rn(static_cast<float>(v))); }
cd round_half(cd v) { return {round_half(v.real()), round_half(v.imag())}; }
double half_bits(uint16_t bits) {
  __half_raw raw;
  raw.x = bits;
  return __half2float(__half(raw));
}
cd root(long long k, long long n, int sign) {
  const double a = sign * 2 * M_PI * static_cast<double>(k % n) / static_cast<double>(n);
  return {std::cos(a), std::sin(a)};
}

// A tile (u, k) as a 16 x 16 matrix, read back out of the lanes' registers
// with the PTX layout: register r of lane (g, q) holds row g + 8*(r & 1),
// columns 2q + 8*(r >> 1) and the next.
std::vector<double> a_tile(const std::vector<uint32_t> &words, int u, int k) {
  std::vector<double> a(256);
  for (int lane = 0; lane < 32; ++lane)
    for (int r = 0; r < 4; ++r) {
      const uint32_t w = words[lane * kFragmentRegs + 8 * u + 4 * k + r];
      const int row = (lane >> 2) + 8 * (r & 1), col = 2 * (lane & 3) + 8 * (r >> 1);
      a[row * 16 + col] = half_bits(static_cast<uint16_t>(w & 0xffff));
      a[row * 16 + col + 1] = half_bits(static_cast<uint16_t>(w >> 16));
    }
  return a;
}

template <bool Cols, int N, int T, int M>
void radix16_step(std::vector<cd> *s, const std::vector<double> (&a)[2][2], int sign) {
  constexpr unsigned ps = point_stride<Cols, T, M>();
  for (unsigned c0 = 0; c0 < T * N / 16; c0 += 8) {
    // B (k-tile k): lane (g, q) holds rows 2q, 2q+1 (its point 2k) and rows
    // 2q+8, 2q+9 (its point 2k+1) of column g, each point as (re, im).
    double b[2][16][8];
    for (int lane = 0; lane < 32; ++lane) {
      const int g = lane >> 2, q = lane & 3;
      const unsigned in = column<Cols, N, T, M>(c0 + g).base;
      for (int j = 0; j < 4; ++j) {
        // The kernel takes the slot as swz(base) ^ swz(offset).
        EXPECT_EQ(swz(in + ps * b_point(q, j)), swz(in) ^ swz(ps * b_point(q, j)));
        const cd x = (*s)[swz(in + ps * b_point(q, j))];
        const int k = j / 2, row = 2 * q + 8 * (j % 2);
        b[k][row][g] = x.real();
        b[k][row + 1][g] = x.imag();
      }
    }
    double d[2][16][8] = {};
    for (int u = 0; u < 2; ++u)
      for (int k = 0; k < 2; ++k)
        for (int i = 0; i < 16; ++i)
          for (int j = 0; j < 8; ++j)
            for (int l = 0; l < 16; ++l) d[u][i][j] += a[u][k][i * 16 + l] * b[k][l][j];
    // D: lane (g, q) holds rows g and g+8 of columns 2q, 2q+1: re and im of
    // point d_point(g, u).
    for (int lane = 0; lane < 32; ++lane) {
      const int g = lane >> 2, q = lane & 3;
      for (int u = 0; u < 2; ++u)
        for (int e = 0; e < 2; ++e) {
          const Column out = column<Cols, N, T, M>(c0 + 2 * q + e);
          const unsigned p = d_point(g, u);
          cd v{d[u][g][2 * q + e], d[u][g + 8][2 * q + e]};
          if (M > 1) v *= root(static_cast<long long>(out.m) * p, 16 * M, sign);
          EXPECT_EQ(swz(out.base + ps * p), swz(out.base) ^ swz(ps * p));
          (*s)[swz(out.base + ps * p)] = round_half(v);
        }
    }
  }
  if constexpr (M > 1) radix16_step<Cols, N, T, M / 16>(s, a, sign);
}

// The reference: an iterative radix-2 FFT in double.
std::vector<cd> reference(const cd *x, unsigned n, int sign) {
  std::vector<cd> v(x, x + n);
  for (unsigned i = 1, j = 0; i < n; ++i) {
    unsigned bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j |= bit;
    if (i < j) std::swap(v[i], v[j]);
  }
  for (unsigned len = 2; len <= n; len <<= 1)
    for (unsigned i = 0; i < n; i += len)
      for (unsigned k = 0; k < len / 2; ++k) {
        const cd t = root(k, len, sign) * v[i + k + len / 2];
        v[i + k + len / 2] = v[i + k] - t;
        v[i + k] += t;
      }
  return v;
}

// One block of T transforms through the kernel's steps; the worst relative
// L2 error over them against a direct DFT. `real`: r2c as our kernels
// compute it, reals with zero imaginary parts in, the error over the
// first N/2 + 1 outputs (the half spectrum r2c keeps).
template <bool Cols, int N, int T>
double replay(int sign, std::mt19937 *rng, bool real = false) {
  constexpr int R = first_radix(N);
  constexpr unsigned sub = N / R;
  std::uniform_real_distribution<double> dist(-0.5, 0.5);
  std::vector<cd> x(T * N);
  for (cd &v : x) v = round_half(cd(dist(*rng), real ? 0.0 : dist(*rng)));
  const auto flat = [](unsigned t, unsigned j) { return Cols ? t + T * j : t * N + j; };

  // The slots are a permutation of the block's shared memory.
  std::set<unsigned> slots;
  for (unsigned i = 0; i < T * N; ++i) slots.insert(swz(i));
  EXPECT_EQ(slots.size(), T * N);
  EXPECT_EQ(*slots.rbegin(), T * N - 1);

  std::vector<cd> s(T * N, cd(NAN, NAN));
  for (unsigned t = 0; t < T; ++t)
    for (unsigned m = 0; m < sub; ++m) {
      float re[R], im[R];
      for (int k = 0; k < R; ++k) re[k] = x[t * N + m + sub * k].real(), im[k] = x[t * N + m + sub * k].imag();
      if (sign < 0) small_dft<R, -1>(re, im);
      else small_dft<R, 1>(re, im);
      for (int k = 0; k < R; ++k) {
        const int slot = bitreverse(k, R);
        const cd y(re[slot], im[slot]);
        s[swz(flat(t, m + sub * k))] = round_half(y * root(static_cast<long long>(m) * k, N, sign));
      }
    }
  std::vector<double> a_words[2][2];
  const std::vector<uint32_t> words = dft_fragments(sign);
  for (int u = 0; u < 2; ++u)
    for (int k = 0; k < 2; ++k) a_words[u][k] = a_tile(words, u, k);
  radix16_step<Cols, N, T, N / R / 16>(&s, a_words, sign);

  double worst = 0;
  for (unsigned t = 0; t < T; ++t) {
    const std::vector<cd> ref = reference(&x[t * N], N, sign);
    double err = 0, norm = 0;
    for (unsigned f = 0; f < (real ? N / 2 + 1 : N); ++f) {
      err += std::norm(s[swz(flat(t, position<N>(f)))] - ref[f]);
      norm += std::norm(ref[f]);
    }
    worst = std::max(worst, std::sqrt(err / norm));
  }
  return std::isnan(worst) ? 1.0 : worst;
}

// Rows two transforms a block; columns as many as the kernel takes.
template <int N, int Columns>
void check() {
  std::mt19937 rng(std::random_device{}());
  for (int sign : {-1, 1}) {
    const double rows = replay<false, N, 2>(sign, &rng), cols = replay<true, N, Columns>(sign, &rng);
    EXPECT_LT(rows, 2e-3) << "rows n=" << N << " sign " << sign;
    EXPECT_LT(cols, 2e-3) << "columns n=" << N << " sign " << sign;
    std::printf("n=%d sign %+d: rows %.2e, columns %.2e\n", N, sign, rows, cols);
  }
}

TEST(Fp16Replay, N256) { check<256, 8>(); }
TEST(Fp16Replay, N512) { check<512, 8>(); }
TEST(Fp16Replay, N1024) { check<1024, 8>(); }
TEST(Fp16Replay, N2048) { check<2048, 8>(); }
TEST(Fp16Replay, N4096) { check<4096, 4>(); }

// r2c on our kernels (engine/fp16/fp16_job.cc): the reals through the c2c
// steps as complex numbers with zero imaginary parts, each step's sums in
// f32 and rounded to half once, the first n/2 + 1 of each row kept: as
// accurate on the half spectrum as the c2c on the whole. The rows' pass
// (the last axis) is the one that sees the reals; the columns' passes of
// a 2-D or 3-D r2c take complex numbers, as c2c's do above.
template <int N>
void check_real() {
  std::mt19937 rng(std::random_device{}());
  const double rows = replay<false, N, 2>(-1, &rng, true);
  EXPECT_LT(rows, 2e-3) << "rows n=" << N;
  std::printf("r2c n=%d: rows %.2e\n", N, rows);
}

TEST(Fp16Replay, RealInputN256) { check_real<256>(); }
TEST(Fp16Replay, RealInputN4096) { check_real<4096>(); }

}  // namespace
