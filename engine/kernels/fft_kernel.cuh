// The single-pass kernels: each block loads its transforms from device
// memory into shared memory with coalesced vector loads, transforms them
// there (Registers: each thread whole transforms in its registers;
// Stages*: every Stockham stage through shared memory; Bluestein: chirp,
// FFT, product, FFT, chirp; Direct: a direct DFT), and stores them back
// the same way. Included by one .cu per precision.
#pragma once

#include <cstdint>
#include <utility>

#include "engine/kernels/butterflies.cuh"
#include "engine/kernels/cuda_complex.h"
#include "engine/kernels/kernel_params.h"

namespace gpufftw::engine::kernels {

template <class T>
using C2 = complex_t<T>;

// Shared-memory slot of element i: one pad value every 32 floats (16
// doubles) spreads the strided writes of the early stages over the banks.
template <class T>
__device__ __forceinline__ int pad(int i) {
  return i + (i >> (sizeof(T) == 4 ? 5 : 4));
}

// Transforms lie in shared memory as separate re and im halves, slot
// values apart; element e of the block's flat chunk is element e % n of
// transform e / n.
template <class T>
struct Shared {
  T *base;
  const KernelParams &p;
  __device__ __forceinline__ int at(unsigned e) const {
    const int t = __umulhi(e, p.n_magic);
    return t * p.slot + pad<T>(e - t * p.n);
  }
  __device__ __forceinline__ void put(unsigned e, T re, T im) const {
    const int a = at(e);
    base[a] = re;
    base[a + p.per_block * p.slot] = im;
  }
  __device__ __forceinline__ void get(unsigned e, T &re, T &im) const {
    const int a = at(e);
    re = base[a];
    im = base[a + p.per_block * p.slot];
  }
};

// Loads issued per thread before their values are used: one at a time,
// a block would wait out the memory latency once per element.
constexpr int kUnroll = 8;

// The block's `total` elements at `g` to shared memory. f32: 16-byte loads
// of two elements, after one single element where g is only 8-aligned.
__device__ __forceinline__ void load(const Shared<float> &s, const float2 *g, int total) {
  if (!s.p.vec) {
    const float *f = reinterpret_cast<const float *>(g);
    for (int e = threadIdx.x; e < total; e += blockDim.x) s.put(e, f[2 * e], f[2 * e + 1]);
    return;
  }
  const int head = (reinterpret_cast<uintptr_t>(g) & 15) ? 1 : 0;
  const int pairs = (total - head) / 2;
  const float4 *q = reinterpret_cast<const float4 *>(g + head);
  for (int i0 = threadIdx.x; i0 < pairs; i0 += kUnroll * blockDim.x) {
    float4 v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u)
      if (i0 + u * blockDim.x < pairs) v[u] = q[i0 + u * blockDim.x];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const int i = i0 + u * blockDim.x;
      if (i < pairs) {
        s.put(head + 2 * i, v[u].x, v[u].y);
        s.put(head + 2 * i + 1, v[u].z, v[u].w);
      }
    }
  }
  if (threadIdx.x == 0 && head) s.put(0, g[0].x, g[0].y);
  if (threadIdx.x == blockDim.x - 1 && head + 2 * pairs < total) s.put(total - 1, g[total - 1].x, g[total - 1].y);
}

__device__ __forceinline__ void store(const Shared<float> &s, float2 *g, int total) {
  float re, im;
  if (!s.p.vec) {
    float *f = reinterpret_cast<float *>(g);
    for (int e = threadIdx.x; e < total; e += blockDim.x) s.get(e, f[2 * e], f[2 * e + 1]);
    return;
  }
  const int head = (reinterpret_cast<uintptr_t>(g) & 15) ? 1 : 0;
  const int pairs = (total - head) / 2;
  float4 *q = reinterpret_cast<float4 *>(g + head);
  for (int i = threadIdx.x; i < pairs; i += blockDim.x) {
    float4 v;
    s.get(head + 2 * i, v.x, v.y);
    s.get(head + 2 * i + 1, v.z, v.w);
    q[i] = v;
  }
  if (threadIdx.x == 0 && head) {
    s.get(0, re, im);
    g[0] = make_float2(re, im);
  }
  if (threadIdx.x == blockDim.x - 1 && head + 2 * pairs < total) {
    s.get(total - 1, re, im);
    g[total - 1] = make_float2(re, im);
  }
}

// f64: one 16-byte load per element.
__device__ __forceinline__ void load(const Shared<double> &s, const double2 *g, int total) {
  if (!s.p.vec) {
    const double *f = reinterpret_cast<const double *>(g);
    for (int e = threadIdx.x; e < total; e += blockDim.x) s.put(e, f[2 * e], f[2 * e + 1]);
    return;
  }
  for (int e0 = threadIdx.x; e0 < total; e0 += kUnroll * blockDim.x) {
    double2 v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u)
      if (e0 + u * blockDim.x < total) v[u] = g[e0 + u * blockDim.x];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u)
      if (e0 + u * blockDim.x < total) s.put(e0 + u * blockDim.x, v[u].x, v[u].y);
  }
}

__device__ __forceinline__ void store(const Shared<double> &s, double2 *g, int total) {
  double *f = reinterpret_cast<double *>(g);
  for (int e = threadIdx.x; e < total; e += blockDim.x) {
    double re, im;
    s.get(e, re, im);
    if (s.p.vec) {
      g[e] = make_double2(re, im);
    } else {
      f[2 * e] = re;
      f[2 * e + 1] = im;
    }
  }
}

// One Stockham stage of radix R over the `len` values at re/im (Govindaraju
// et al. 2008): butterfly j reads j + r*len/R, is twiddled by its place in
// the ns-long sub-transforms done so far, and writes (j - j%ns)*R + j%ns +
// r*ns. All reads of the block come before all writes, so it runs in place.
template <class T, Shape S, int R, bool FWD>
__device__ __forceinline__ void stage(const Stage &st, int len, const C2<T> *tw, T *re, T *im, int tid, int tpt) {
  constexpr int IT = max_iters(S, R);
  const int b = len / R;
  T vr[IT][R], vi[IT][R];
#pragma unroll
  for (int it = 0; it < IT; ++it) {
    const int j = tid + it * tpt;
    if (j < b) {
#pragma unroll
      for (int r = 0; r < R; ++r) {
        const int a = pad<T>(j + r * b);
        vr[it][r] = re[a];
        vi[it][r] = im[a];
      }
    }
  }
  __syncthreads();
#pragma unroll
  for (int it = 0; it < IT; ++it) {
    const int j = tid + it * tpt;
    if (j < b) {
      int k = 0;
      if (st.ns > 1) {
        k = j - st.ns * static_cast<int>(__umulhi(j, st.ns_magic));
        const C2<T> *w = tw + st.tw + k;
#pragma unroll
        for (int r = 1; r < R; ++r) {
          const C2<T> c = __ldg(w + (r - 1) * st.ns);
          multiply(vr[it][r], vi[it][r], c.x, FWD ? c.y : -c.y);
        }
      }
      dft<R, FWD>(vr[it], vi[it]);
      const int d = (j - k) * R + k;
#pragma unroll
      for (int r = 0; r < R; ++r) {
        const int a = pad<T>(d + r * st.ns);
        re[a] = vr[it][r];
        im[a] = vi[it][r];
      }
    }
  }
  __syncthreads();
}

// The stages of one radix, which the plan puts in a run (stage s onward).
// One loop per radix: a loop over all stages with a switch inside lets the
// compiler hoist every radix's constants out of it at once, and spill.
template <class T, Shape S, int R, bool FWD>
__device__ __forceinline__ void radix_run(const KernelParams &p, int *s, T *re, T *im, int tid) {
  const C2<T> *tw = static_cast<const C2<T> *>(p.tw);
  for (; *s < p.stages && p.stage[*s].radix == R; ++*s)
    stage<T, S, R, FWD>(p.stage[*s], p.len, tw, re, im, tid, p.tpt);
}

// All stages, in kRadixOrder (the plan's order); Stages8 plans no radix
// 16, Bluestein's power-of-two m no other radix, C: the composite radices.
template <class T, Shape S, bool FWD, bool POW2, bool C>
__device__ __forceinline__ void run_stages(const KernelParams &p, T *re, T *im, int tid) {
  int s = 0;
  if constexpr (S == Shape::Stages16) radix_run<T, S, 16, FWD>(p, &s, re, im, tid);
  radix_run<T, S, 8, FWD>(p, &s, re, im, tid);
  radix_run<T, S, 4, FWD>(p, &s, re, im, tid);
  radix_run<T, S, 2, FWD>(p, &s, re, im, tid);
  if constexpr (!POW2) {
    if constexpr (C) radix_run<T, S, 14, FWD>(p, &s, re, im, tid);
    radix_run<T, S, 13, FWD>(p, &s, re, im, tid);
    if constexpr (C) radix_run<T, S, 12, FWD>(p, &s, re, im, tid);
    radix_run<T, S, 11, FWD>(p, &s, re, im, tid);
    if constexpr (C) {
      radix_run<T, S, 10, FWD>(p, &s, re, im, tid);
      radix_run<T, S, 9, FWD>(p, &s, re, im, tid);
    }
    radix_run<T, S, 7, FWD>(p, &s, re, im, tid);
    if constexpr (C) radix_run<T, S, 6, FWD>(p, &s, re, im, tid);
    radix_run<T, S, 5, FWD>(p, &s, re, im, tid);
    radix_run<T, S, 3, FWD>(p, &s, re, im, tid);
  }
}

// Bluestein's elementwise steps on one transform, between its FFTs of
// length m: first x*chirp zero-padded to m, then conj(X*K) (so that the
// next forward FFT is the inverse), last chirp*conj(y) on the n kept.
template <class T>
__device__ __forceinline__ void chirp_in(const KernelParams &p, const C2<T> *chirp, T *re, T *im, int tid) {
  for (int i = tid; i < p.len; i += p.tpt) {
    const int a = pad<T>(i);
    T x = 0, y = 0;
    if (i < p.n) {
      const C2<T> c = __ldg(chirp + i);
      x = re[a];
      y = im[a];
      multiply(x, y, c.x, c.y);
    }
    re[a] = x;
    im[a] = y;
  }
  __syncthreads();
}

template <class T>
__device__ __forceinline__ void kernel_product(const KernelParams &p, const C2<T> *kft, T *re, T *im, int tid) {
  for (int i = tid; i < p.len; i += p.tpt) {
    const int a = pad<T>(i);
    const C2<T> c = __ldg(kft + i);
    T x = re[a], y = im[a];
    multiply(x, y, c.x, c.y);
    re[a] = x;
    im[a] = -y;
  }
  __syncthreads();
}

template <class T>
__device__ __forceinline__ void chirp_out(const KernelParams &p, const C2<T> *chirp, T *re, T *im, int tid) {
  for (int i = tid; i < p.n; i += p.tpt) {
    const int a = pad<T>(i);
    const C2<T> c = __ldg(chirp + i);
    T x = re[a], y = -im[a];
    multiply(x, y, c.x, c.y);
    re[a] = x;
    im[a] = y;
  }
  __syncthreads();
}

// All of one transform's work between load and store, on the Stockham
// stages in shared memory.
template <class T, Shape S, Mode M, bool C>
__device__ __forceinline__ void transform(const KernelParams &p, T *re, T *im, int tid) {
  if constexpr (M == Mode::Bluestein) {
    const C2<T> *chirp = static_cast<const C2<T> *>(p.chirp) + p.dir * p.n;
    chirp_in<T>(p, chirp, re, im, tid);
    // One copy of the stages, run twice: two copies would not fit the registers.
#pragma unroll 1
    for (int pass = 0; pass < 2; ++pass) {
      if (pass == 1) kernel_product<T>(p, static_cast<const C2<T> *>(p.kernel_ft) + p.dir * p.len, re, im, tid);
      run_stages<T, S, true, true, false>(p, re, im, tid);
    }
    chirp_out<T>(p, chirp, re, im, tid);
  } else {
    run_stages<T, S, M == Mode::Forward, false, C>(p, re, im, tid);
  }
}

// Whole transforms of length N in registers, thread by thread through the
// block's transforms (re/im: the block's first transform; slot apart).
template <class T, int N, bool FWD>
__device__ __forceinline__ void register_transforms(const KernelParams &p, T *re, T *im) {
  for (int t = threadIdx.x; t < p.per_block; t += blockDim.x) {
    T vr[N], vi[N];
#pragma unroll
    for (int i = 0; i < N; ++i) {
      vr[i] = re[t * p.slot + pad<T>(i)];
      vi[i] = im[t * p.slot + pad<T>(i)];
    }
    dft<N, FWD>(vr, vi);
#pragma unroll
    for (int i = 0; i < N; ++i) {
      re[t * p.slot + pad<T>(i)] = vr[i];
      im[t * p.slot + pad<T>(i)] = vi[i];
    }
  }
}

template <class T>
struct alignas(16) DirectPair {
  C2<T> u, v;
};

// Shape::Direct on the block's transforms in shared memory (slots at sh):
// the pairs of each, then, transform after transform, per thread X[k]
// and X[n-k] = x[0] + P -+ i*Q (backward: +-) with P = sum_j u_j
// cos(2*pi*j*k/n) (x[n/2] (-1)^k added) and Q = sum_j v_j
// sin(2*pi*j*k/n), j over the pairs after the first.
// The roots are taken at j*k mod n exactly, so no error compounds along
// j; the pairs' symmetries take a quarter of the plain sum's products.
template <class T, bool FWD>
__device__ __forceinline__ void direct_dft(const KernelParams &p, unsigned char *smem, T *sh) {
  const int n = p.n, h = direct_pairs(n);
  auto *pairs = reinterpret_cast<DirectPair<T> *>(smem + direct_offset(sizeof(T), p.per_block, p.slot));
  C2<T> *roots = reinterpret_cast<C2<T> *>(pairs + p.per_block * h);
  T *re = sh, *im = sh + p.per_block * p.slot;
  for (int i = threadIdx.x; i < n; i += blockDim.x) roots[i] = __ldg(static_cast<const C2<T> *>(p.tw) + i);
  for (int e = threadIdx.x; e < p.per_block * h; e += blockDim.x) {
    const int t = e / h, j = e - t * h;
    const T *r = re + t * p.slot, *i = im + t * p.slot;
    DirectPair<T> q;
    if (j == 0) {
      const bool mid = n % 2 == 0;
      q.u.x = r[0];
      q.u.y = i[0];
      q.v.x = mid ? r[pad<T>(n / 2)] : T(0);
      q.v.y = mid ? i[pad<T>(n / 2)] : T(0);
    } else {
      const int a = pad<T>(j), b = pad<T>(n - j);
      q.u.x = r[a] + r[b];
      q.u.y = i[a] + i[b];
      q.v.x = r[a] - r[b];
      q.v.y = i[a] - i[b];
    }
    pairs[e] = q;
  }
  __syncthreads();
  const int groups = blockDim.x / p.tpt, g = threadIdx.x / p.tpt, k = threadIdx.x - g * p.tpt;
  for (int t = g; t < p.per_block; t += groups) {
    const DirectPair<T> *mine = pairs + t * h;
    T pr = 0, pi = 0, qr = 0, qi = 0;
    for (int j = 1, m = 0; j < h; ++j) {
      m += k;
      if (m >= n) m -= n;
      const C2<T> w = roots[m];
      const DirectPair<T> q = mine[j];
      pr = fma_(q.u.x, w.x, pr);
      pi = fma_(q.u.y, w.x, pi);
      qr = fma_(q.v.x, w.y, qr);
      qi = fma_(q.v.y, w.y, qi);
    }
    const DirectPair<T> first = mine[0];
    pr += first.u.x + (k & 1 ? -first.v.x : first.v.x);
    pi += first.u.y + (k & 1 ? -first.v.y : first.v.y);
    const T sr = FWD ? qi : -qi, si = FWD ? -qr : qr;  // -i*Q forward, +i*Q backward
    T *r = re + t * p.slot, *i = im + t * p.slot;
    r[pad<T>(k)] = pr + sr;
    i[pad<T>(k)] = pi + si;
    if (k != 0 && 2 * k != n) {
      r[pad<T>(n - k)] = pr - sr;
      i[pad<T>(n - k)] = pi - si;
    }
  }
  __syncthreads();
}

// Register budgets (the compiler's cap follows from threads x blocks):
// Stages16 one block of up to 512 threads an SM (128 registers); Stages8
// two such blocks in f32 (64 registers), in f64 (twice the bytes a value)
// three blocks of up to 256 threads (85); Registers four blocks of 256 in
// f32 (64), three in f64 (85); Direct four blocks of up to 256 (64).
template <class T, Shape S>
struct Bounds {
  static constexpr bool f64 = sizeof(T) == 8;
  static constexpr int threads =
      S == Shape::Registers || S == Shape::Direct || (S == Shape::Stages8 && f64) ? 256 : kMaxThreads;
  static constexpr int blocks = S == Shape::Stages16 ? 1
                                : S == Shape::Stages8 ? (f64 ? 3 : 2)
                                : S == Shape::Direct  ? 4
                                                      : (f64 ? 3 : 4);
};

// N: the length of a Registers kernel (0 for the others); C: the stages
// have the composite radices.
template <class T, Shape S, Mode M, int N, bool C>
__global__ void __launch_bounds__(Bounds<T, S>::threads, Bounds<T, S>::blocks)
    fft_kernel(const __grid_constant__ KernelParams p, const C2<T> *in, C2<T> *out) {
  extern __shared__ __align__(16) unsigned char smem[];
  T *sh = reinterpret_cast<T *>(smem);
  const long long first = static_cast<long long>(blockIdx.x) * p.per_block;
  const int total = static_cast<int>(min(static_cast<long long>(p.per_block), p.batch - first)) * p.n;
  const size_t offset = static_cast<size_t>(first) * p.n;
  const Shared<T> s{sh, p};
  // The chunk of the block that runs about one block's time from now
  // (p.ahead blocks on) into L2 while this one loads and computes: its
  // loads then wait for L2, not for device memory.
  if (p.ahead && first + static_cast<long long>(p.ahead) * p.per_block < p.batch) {
    const long long later = first + static_cast<long long>(p.ahead) * p.per_block;
    const long long count = min(static_cast<long long>(p.per_block), p.batch - later) * p.n;
    const char *from = reinterpret_cast<const char *>(in + later * p.n);
    const size_t bytes = static_cast<size_t>(count) * sizeof(C2<T>);
    for (size_t at = static_cast<size_t>(threadIdx.x) * 128; at < bytes; at += static_cast<size_t>(blockDim.x) * 128)
      asm volatile("prefetch.global.L2 [%0];" ::"l"(from + at));
  }
  load(s, in + offset, total);
  __syncthreads();
  if constexpr (S == Shape::Registers) {
    register_transforms<T, N, M == Mode::Forward>(p, sh, sh + p.per_block * p.slot);
    __syncthreads();
  } else if constexpr (S == Shape::Direct) {
    direct_dft<T, M == Mode::Forward>(p, smem, sh);
  } else {
    // Threads of a transform past the batch's end compute on garbage and
    // store nothing; they still meet every barrier.
    const int t = threadIdx.x / p.tpt, tid = threadIdx.x - t * p.tpt;
    T *re = sh + t * p.slot, *im = re + p.per_block * p.slot;
    transform<T, S, M, C>(p, re, im, tid);
  }
  store(s, out + offset, total);
}

// A strided side's values to or from their slots (column c, element j
// at c*slot + pad(j)), j-major over the block's columns: where the side's
// dist is 1, adjacent threads touch adjacent addresses.
template <class T>
__device__ __forceinline__ C2<T> read(const C2<T> *g, long long i, int vec) {
  if (vec) return g[i];
  const T *f = reinterpret_cast<const T *>(g + i);
  C2<T> v;
  v.x = f[0];
  v.y = f[1];
  return v;
}

// Element e of the block is element e / per_block of column e % per_block;
// columns from `count` on (past the group's end) are skipped.
template <class T>
__device__ __forceinline__ void load_columns(const KernelParams &p, const StridedParams &q, T *sh, const C2<T> *g,
                                             const SideLayout &l, int count) {
  const int total = p.per_block * p.n, im = p.per_block * p.slot;
  for (int e0 = threadIdx.x; e0 < total; e0 += kUnroll * blockDim.x) {
    C2<T> v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const int e = e0 + u * blockDim.x;
      const int j = p.per_block == 1 ? e : __umulhi(e, q.per_block_magic), c = e - j * p.per_block;
      if (e < total && c < count) v[u] = read<T>(g, c * l.dist + j * l.stride, p.vec);
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const int e = e0 + u * blockDim.x;
      const int j = p.per_block == 1 ? e : __umulhi(e, q.per_block_magic), c = e - j * p.per_block;
      if (e < total && c < count) {
        const int a = c * p.slot + pad<T>(j);
        sh[a] = v[u].x;
        sh[a + im] = v[u].y;
      }
    }
  }
}

// The store, times the four-step twiddle W^(column*element) where asked;
// `first` is the block's first column within its group.
template <class T>
__device__ __forceinline__ void store_columns(const KernelParams &p, const StridedParams &q, const T *sh, C2<T> *g,
                                              const SideLayout &l, int count, long long first) {
  const int total = p.per_block * p.n, im = p.per_block * p.slot;
  const C2<T> *lo = static_cast<const C2<T> *>(q.twiddle_lo), *hi = static_cast<const C2<T> *>(q.twiddle_hi);
  for (int e = threadIdx.x; e < total; e += blockDim.x) {
    const int j = p.per_block == 1 ? e : __umulhi(e, q.per_block_magic), c = e - j * p.per_block;
    if (c >= count) continue;
    const int a = c * p.slot + pad<T>(j);
    T x = sh[a], y = sh[a + im];
    if (q.twiddle_n) {
      const long long r = (first + c) * j;
      const C2<T> wl = __ldg(lo + (r & ((1 << kTwiddleLoBits) - 1))), wh = __ldg(hi + (r >> kTwiddleLoBits));
      T wr = wl.x, wi = wl.y;
      multiply(wr, wi, wh.x, wh.y);
      multiply(x, y, wr, p.dir ? -wi : wi);
    }
    const long long i = c * l.dist + j * l.stride;
    if (p.vec) {
      C2<T> v;
      v.x = x;
      v.y = y;
      g[i] = v;
    } else {
      T *f = reinterpret_cast<T *>(g + i);
      f[0] = x;
      f[1] = y;
    }
  }
}

// One pass of a multi-pass transform (StridedParams): a block's adjacent
// columns of one group in, the stages, out. A dense side
// (stride 1, dist n) takes the single-pass kernels' vector loads.
template <class T, Shape S, Mode M>
__global__ void __launch_bounds__(Bounds<T, S>::threads, Bounds<T, S>::blocks)
    strided_kernel(const __grid_constant__ KernelParams p, const __grid_constant__ StridedParams q, const C2<T> *in,
                   C2<T> *out) {
  extern __shared__ __align__(16) unsigned char smem[];
  T *sh = reinterpret_cast<T *>(smem);
  const long long group = blockIdx.x / q.blocks_per_group;
  const long long first = (blockIdx.x - group * q.blocks_per_group) * static_cast<long long>(p.per_block);
  const int count = static_cast<int>(min(static_cast<long long>(p.per_block), q.cols - first));
  const C2<T> *src = in + group * q.in.group_dist + first * q.in.dist;
  C2<T> *dst = out + group * q.out.group_dist + first * q.out.dist;
  const Shared<T> s{sh, p};
  if (q.in.stride == 1 && q.in.dist == p.n)
    load(s, src, count * p.n);
  else
    load_columns(p, q, sh, src, q.in, count);
  __syncthreads();
  // Columns past the group's end compute on garbage and store nothing;
  // their threads still meet every barrier.
  const int t = threadIdx.x / p.tpt, tid = threadIdx.x - t * p.tpt;
  T *re = sh + t * p.slot, *im = re + p.per_block * p.slot;
  transform<T, S, M, false>(p, re, im, tid);
  if (q.out.stride == 1 && q.out.dist == p.n && !q.twiddle_n)
    store(s, dst, count * p.n);
  else
    store_columns(p, q, sh, dst, q.out, count, first);
}

// The kernel function of kind k (and length n for Registers) handed to
// `use`, which returns a cudaError_t; cudaErrorInvalidValue where there is
// none.
template <class T, bool FWD, class F, int... I>
cudaError_t with_register_kernel(int n, F &&use, std::integer_sequence<int, I...>) {
  constexpr Mode M = FWD ? Mode::Forward : Mode::Backward;
  cudaError_t e = cudaErrorInvalidValue;
  ((n == I + 2 ? (e = use(fft_kernel<T, Shape::Registers, M, I + 2, false>), 0) : 0), ...);
  return e;
}

template <class T, Shape S, class F>
cudaError_t with_stage_kernel(Mode m, bool composite, F &&use) {
  switch (m) {
    case Mode::Forward:
      return composite ? use(fft_kernel<T, S, Mode::Forward, 0, true>) : use(fft_kernel<T, S, Mode::Forward, 0, false>);
    case Mode::Backward:
      return composite ? use(fft_kernel<T, S, Mode::Backward, 0, true>)
                       : use(fft_kernel<T, S, Mode::Backward, 0, false>);
    default: return composite ? cudaErrorInvalidValue : use(fft_kernel<T, S, Mode::Bluestein, 0, false>);
  }
}

template <class T, class F>
cudaError_t with_strided_kernel(KernelKind k, F &&use) {
  if (k.shape == Shape::Registers || k.shape == Shape::Direct || k.composite) return cudaErrorInvalidValue;
  if (k.shape == Shape::Stages16) {
    switch (k.mode) {
      case Mode::Forward: return use(strided_kernel<T, Shape::Stages16, Mode::Forward>);
      case Mode::Backward: return use(strided_kernel<T, Shape::Stages16, Mode::Backward>);
      default: return use(strided_kernel<T, Shape::Stages16, Mode::Bluestein>);
    }
  }
  switch (k.mode) {
    case Mode::Forward: return use(strided_kernel<T, Shape::Stages8, Mode::Forward>);
    case Mode::Backward: return use(strided_kernel<T, Shape::Stages8, Mode::Backward>);
    default: return use(strided_kernel<T, Shape::Stages8, Mode::Bluestein>);
  }
}

template <class T, class F>
cudaError_t with_kernel(KernelKind k, int n, F &&use) {
  switch (k.shape) {
    case Shape::Registers:
      if (k.mode == Mode::Forward)
        return with_register_kernel<T, true>(n, use, std::make_integer_sequence<int, kMaxRegisterN - 1>{});
      if (k.mode == Mode::Backward)
        return with_register_kernel<T, false>(n, use, std::make_integer_sequence<int, kMaxRegisterN - 1>{});
      return cudaErrorInvalidValue;
    case Shape::Direct:
      if (k.composite || k.mode == Mode::Bluestein) return cudaErrorInvalidValue;
      return k.mode == Mode::Forward ? use(fft_kernel<T, Shape::Direct, Mode::Forward, 0, false>)
                                     : use(fft_kernel<T, Shape::Direct, Mode::Backward, 0, false>);
    case Shape::Stages16: return with_stage_kernel<T, Shape::Stages16>(k.mode, k.composite, use);
    default: return with_stage_kernel<T, Shape::Stages8>(k.mode, k.composite, use);
  }
}

template <class T>
cudaError_t launch_kind(KernelKind k, const Grid &g, const KernelParams &p, const void *in, void *out,
                        cudaStream_t stream) {
  return with_kernel<T>(k, p.n, [&](auto kernel) {
    kernel<<<g.blocks, g.threads, g.shared, stream>>>(p, static_cast<const C2<T> *>(in), static_cast<C2<T> *>(out));
    return cudaGetLastError();
  });
}

template <class T>
cudaError_t launch_strided(KernelKind k, const Grid &g, const KernelParams &p, const StridedParams &q, const void *in,
                           void *out, cudaStream_t stream) {
  return with_strided_kernel<T>(k, [&](auto kernel) {
    kernel<<<g.blocks, g.threads, g.shared, stream>>>(p, q, static_cast<const C2<T> *>(in), static_cast<C2<T> *>(out));
    return cudaGetLastError();
  });
}

// Either family: for what does not depend on the kernel's arguments.
template <class T, class F>
cudaError_t with_any_kernel(KernelKind k, int n, F &&use) {
  return k.strided ? with_strided_kernel<T>(k, use) : with_kernel<T>(k, n, use);
}

template <class T>
cudaError_t allow_shared(KernelKind k, int n, int bytes) {
  return with_any_kernel<T>(k, n, [&](auto kernel) {
    return cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
  });
}

template <class T>
cudaError_t attributes(KernelKind k, int n, cudaFuncAttributes *a) {
  return with_any_kernel<T>(k, n, [&](auto kernel) { return cudaFuncGetAttributes(a, kernel); });
}

template <class T>
cudaError_t resident_blocks(KernelKind k, int n, int threads, size_t shared, int *blocks) {
  return with_any_kernel<T>(k, n, [&](auto kernel) {
    return cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, kernel, threads, shared);
  });
}

}  // namespace gpufftw::engine::kernels
