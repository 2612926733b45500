// DFTs of the radices 2, 3, 4, 5, 7, 8, 11, 13 and 16 on values held in
// registers: every index is a compile-time constant once the loops are
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
GPUFFTW_HD void dft(T (&re)[R], T (&im)[R]) {
  if constexpr ((R & (R - 1)) == 0)
    dft_pow2<R, FWD>(re, im);
  else
    dft_odd<R, FWD>(re, im);
}

}  // namespace gpufftw::engine::kernels
