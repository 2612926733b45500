// Where the FP16 tensor-core FFT keeps each value, shared by the kernels
// and the CPU test that replays their index arithmetic. A block holds T
// transforms of length N in shared memory as __half2, element j of
// transform t at flat index t*N + j (rows: transforms along the array) or
// t + T*j (columns: T neighbouring columns of a strided axis, so each row of
// the tile is one contiguous run in device memory).
//
// The transform is N = R * 16^s: one radix-R step (R = 1, 2, 4 or 8) at
// stride N/R while the data comes in, then s radix-16 steps. A radix-16 step
// with sub-length L = 16*M takes each "column" (16 points M apart inside a
// block of L) through the 16-point DFT as one tensor-core product, then
// multiplies point P of column m by exp(sign*2*pi*i*m*P/L). The output ends
// in digit-reversed order, which the store undoes (position()).
#pragma once

#if defined(__CUDACC__)
#define FP16_HD __host__ __device__ __forceinline__
#define FP16_CONSTEXPR __host__ __device__ constexpr
#define FP16_UNROLL _Pragma("unroll")
#else
#define FP16_HD inline
#define FP16_CONSTEXPR constexpr
#define FP16_UNROLL
#endif

namespace gpufftw::engine::fp16 {

// The radix of the first step: what is left of N after the powers of 16.
FP16_CONSTEXPR int first_radix(int n) { return n == 512 ? 2 : n == 1024 ? 4 : n == 2048 ? 8 : 1; }

// Shared-memory slot of flat index a: bits 3-4 flipped by the XOR of every
// 2-bit group from bit 5 up. The stages read 16 points a power of two apart
// and write 8 columns' outputs; without it every point of a column lands on
// one bank. Keeps runs of 8 (bits 0-2) together, so 8- and 16-byte accesses
// stay whole.
FP16_HD unsigned swz(unsigned a) {
  unsigned x = a >> 5;
  x ^= x >> 2;
  x ^= x >> 4;
  x ^= x >> 8;
  x ^= x >> 16;
  return a ^ ((x & 3u) << 3);
}

// Column c of a radix-16 step with stride M: flat index of its point 0 and
// its m (the twiddle's factor). Columns are numbered so that 8 consecutive
// ones, a tensor-core tile, lie next to each other in shared memory where
// the stride allows (rows with M >= 16: consecutive m; columns: consecutive
// transforms).
struct Column {
  unsigned base, m;
};
template <bool Cols, int N, int T, int M>
FP16_HD Column column(unsigned c) {
  constexpr unsigned L = 16 * M;
  if (Cols) {
    const unsigned t = c % T, rest = c / T, m = rest % M, b = rest / M;
    return {t + T * (b * L + m), m};
  }
  const unsigned m = c % M, b = (c / M) % (N / L), t = c / (N / 16);
  return {t * N + b * L + m, m};
}
// Flat distance between consecutive points of a column. A column's base
// and ps * point never share a set bit, and swz is linear over XOR, so the
// kernel takes swz(base + ps*p) as swz(base) ^ swz(ps*p) (the replay test
// checks it for every tile).
template <bool Cols, int T, int M>
FP16_CONSTEXPR unsigned point_stride() {
  return Cols ? T * M : M;
}

// Where frequency f of a length-N transform sits after all steps: the
// radix-R digit selects the block of N/R, then the radix-16 digits count
// down from the largest stride.
template <int N>
FP16_HD unsigned position(unsigned f) {
  constexpr unsigned R = first_radix(N);
  unsigned j = (f % R) * (N / R), rest = f / R;
  for (unsigned l = N / R; l > 1; l /= 16) {
    j += (rest % 16) * (l / 16);
    rest /= 16;
  }
  return j;
}

// The tensor-core tile (mma m16n8k16, f16 in, f32 accumulate): 16 complex
// points x 8 columns as a 32 x 8 real matrix B (rows re, im interleaved by
// point), times the 32 x 32 real form of the 16-point DFT, as 2 x 2 tiles
// of 16 x 16. Lane (g = lane/4, q = lane%4) loads points 4q .. 4q+3 of
// column g, so each of its B registers is one __half2 as it lies in memory:
// k-tile k holds points 4q+2k and 4q+2k+1. It gets back points g and g+8 of
// columns 2q and 2q+1 (m-tile u: point 8u+g; rows re 0-7, im 8-15).
FP16_HD int b_point(int q, int j) { return 4 * q + j; }
FP16_HD int d_point(int g, int u) { return 8 * u + g; }

// Element (row, col) of A tile (u, k) of the real 32 x 32 DFT matrix for
// `sign`, as cos/sin of 2*pi*P*Q/16 with their signs: output point P, part
// (row / 8: re, im), input point Q, part (col % 2).
struct AEntry {
  int p, q;           // output and input point
  bool out_im, in_im; // which parts they are
};
FP16_HD AEntry a_entry(int u, int k, int row, int col) {
  // col: lane q' = (col % 8) / 2 and register (col / 8) give the input point.
  const int qlane = (col & 7) >> 1, reg = col >> 3;
  return {d_point(row & 7, u), b_point(qlane, 2 * k + reg), row >= 8, (col & 1) != 0};
}

}  // namespace gpufftw::engine::fp16
