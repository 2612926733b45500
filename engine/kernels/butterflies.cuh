// DFTs of the radices 2, 3, 4, 5, 7, 8, 11, 13 and 16, and of every other
// length up to 16, on values held in registers: every index is a compile-time constant once the loops are
// unrolled, so the arrays stay in registers and the roots fold to
// constants. FWD: FFTW's sign -1.
#pragma once

#include "engine/kernels/roots.h"

// Host too, so that the butterflies can be checked without a GPU.
#define GPUFFTW_HD __host__ __device__ __forceinline__

namespace gpufftw::engine::kernels {

template <class T>
GPUFFTW_HD T fma_(T a, T b, T c) {
  return fma(a, b, c);
}

// (re, im) times (c + i*s), in the one form (two fmas) that every product
// by a root read from a table takes.
template <class T>
GPUFFTW_HD void multiply(T &re, T &im, T c, T s) {
  const T r = re;
  re = fma_(r, c, -im * s);
  im = fma_(r, s, im * c);
}

// (re, im) times exp(FWD ? -2*pi*i*k/n : +2*pi*i*k/n), with k and n
// constants; the quarter turns are swaps, not products.
template <bool FWD, class T>
GPUFFTW_HD void rotate(T &re, T &im, int k, int n) {
  if (k % n == 0) return;
  if (4 * k == n) {
    const T t = re;
    re = FWD ? im : -im;
    im = FWD ? -t : t;
    return;
  }
  const T c = static_cast<T>(root_cos(k, n)), s = static_cast<T>(root_sin(k, n));
  const T r = re;
  re = FWD ? fma_(im, s, r * c) : fma_(-im, s, r * c);
  im = FWD ? fma_(-r, s, im * c) : fma_(r, s, im * c);
}

// Radix 2 split in time, recursively; the even/odd split and the final
// order are register renamings.
template <int N, bool FWD, class T>
GPUFFTW_HD void dft_pow2(T (&re)[N], T (&im)[N]) {
  if constexpr (N == 2) {
    const T r = re[0], i = im[0];
    re[0] = r + re[1];
    im[0] = i + im[1];
    re[1] = r - re[1];
    im[1] = i - im[1];
  } else {
    constexpr int H = N / 2;
    T er[H], ei[H], odr[H], odi[H];
#pragma unroll
    for (int j = 0; j < H; ++j) {
      er[j] = re[2 * j];
      ei[j] = im[2 * j];
      odr[j] = re[2 * j + 1];
      odi[j] = im[2 * j + 1];
    }
    dft_pow2<H, FWD>(er, ei);
    dft_pow2<H, FWD>(odr, odi);
#pragma unroll
    for (int k = 0; k < H; ++k) {
      rotate<FWD>(odr[k], odi[k], k, N);
      re[k] = er[k] + odr[k];
      im[k] = ei[k] + odi[k];
      re[k + H] = er[k] - odr[k];
      im[k + H] = ei[k] - odi[k];
    }
  }
}

// An odd prime radix by its symmetric form: x_j and x_{N-j} enter as a sum
// (against cosines) and a difference (against sines), about half the
// products of the plain DFT.
template <int N, bool FWD, class T>
GPUFFTW_HD void dft_odd(T (&re)[N], T (&im)[N]) {
  constexpr int H = (N - 1) / 2;
  T sr[H + 1], si[H + 1], dr[H + 1], di[H + 1];  // [0] unused
  T r0 = re[0], i0 = im[0];
#pragma unroll
  for (int j = 1; j <= H; ++j) {
    sr[j] = re[j] + re[N - j];
    si[j] = im[j] + im[N - j];
    dr[j] = re[j] - re[N - j];
    di[j] = im[j] - im[N - j];
    r0 += sr[j];
    i0 += si[j];
  }
#pragma unroll
  for (int k = 1; k <= H; ++k) {
    T ar = re[0], ai = im[0], br = 0, bi = 0;
#pragma unroll
    for (int j = 1; j <= H; ++j) {
      const T c = static_cast<T>(root_cos(j * k, N)), s = static_cast<T>(root_sin(j * k, N));
      ar = fma_(sr[j], c, ar);
      ai = fma_(si[j], c, ai);
      br = fma_(dr[j], s, br);
      bi = fma_(di[j], s, bi);
    }
    // Slots k and N-k are not read again: their inputs live in sr..di.
    re[k] = FWD ? ar + bi : ar - bi;
    im[k] = FWD ? ai - br : ai + br;
    re[N - k] = FWD ? ar - bi : ar + bi;
    im[N - k] = FWD ? ai + br : ai - br;
  }
  re[0] = r0;
  im[0] = i0;
}

template <int R, bool FWD, class T>
GPUFFTW_HD void dft(T (&re)[R], T (&im)[R]);

// The radices' own butterflies, and the other lengths up to 16 (6, 9, 10,
// 12, 14, 15) as N = A x B in registers: B DFTs of length A on x[B*n1 +
// n2], a twiddle by w_N^(n2*k1), A DFTs of length B; X[k1 + A*k2] from
// the second DFT of k1 at k2.
__host__ __device__ constexpr bool is_radix(int n) { return n <= 16 && (16 % n == 0 || n % 2 == 1) && n != 9 && n != 15; }
__host__ __device__ constexpr int first_factor(int n) { return n % 4 == 0 ? 4 : n % 2 == 0 ? 2 : n % 3 == 0 ? 3 : 5; }

template <int N, bool FWD, class T>
GPUFFTW_HD void dft_composite(T (&re)[N], T (&im)[N]) {
  constexpr int A = first_factor(N), B = N / A;
  T yr[B][A], yi[B][A];
#pragma unroll
  for (int n2 = 0; n2 < B; ++n2) {
#pragma unroll
    for (int n1 = 0; n1 < A; ++n1) {
      yr[n2][n1] = re[B * n1 + n2];
      yi[n2][n1] = im[B * n1 + n2];
    }
    dft<A, FWD>(yr[n2], yi[n2]);
#pragma unroll
    for (int k1 = 1; k1 < A; ++k1) rotate<FWD>(yr[n2][k1], yi[n2][k1], n2 * k1, N);
  }
#pragma unroll
  for (int k1 = 0; k1 < A; ++k1) {
    T zr[B], zi[B];
#pragma unroll
    for (int n2 = 0; n2 < B; ++n2) {
      zr[n2] = yr[n2][k1];
      zi[n2] = yi[n2][k1];
    }
    dft<B, FWD>(zr, zi);
#pragma unroll
    for (int k2 = 0; k2 < B; ++k2) {
      re[k1 + A * k2] = zr[k2];
      im[k1 + A * k2] = zi[k2];
    }
  }
}

template <int R, bool FWD, class T>
GPUFFTW_HD void dft(T (&re)[R], T (&im)[R]) {
  if constexpr (!is_radix(R))
    dft_composite<R, FWD>(re, im);
  else if constexpr ((R & (R - 1)) == 0)
    dft_pow2<R, FWD>(re, im);
  else
    dft_odd<R, FWD>(re, im);
}

}  // namespace gpufftw::engine::kernels
