// The single-pass kernel: each block loads its transforms from device
// memory into shared memory with coalesced vector loads, runs every
// Stockham stage there (Bluestein: chirp, FFT, product, FFT, chirp), and
// stores them back the same way. Included by one .cu per precision.
#pragma once

#include <cstdint>

#include "engine/cuda_complex.h"
#include "engine/kernels/butterflies.cuh"
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
template <class T, int R, bool FWD>
__device__ __forceinline__ void stage(const Stage &st, int len, const C2<T> *tw, T *re, T *im, int tid, int tpt) {
  constexpr int IT = max_iters(R);
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
          const T s = FWD ? c.y : -c.y;
          const T x = vr[it][r];
          vr[it][r] = fma_(x, c.x, -vi[it][r] * s);
          vi[it][r] = fma_(x, s, vi[it][r] * c.x);
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
template <class T, int R, bool FWD>
__device__ __forceinline__ void radix_run(const KernelParams &p, int *s, T *re, T *im, int tid) {
  const C2<T> *tw = static_cast<const C2<T> *>(p.tw);
  for (; *s < p.stages && p.stage[*s].radix == R; ++*s) stage<T, R, FWD>(p.stage[*s], p.len, tw, re, im, tid, p.tpt);
}

// All stages, the radices in the plan's order (descending powers of two,
// then 13, 11, 7, 5, 3); POW2: the length is a power of two (Bluestein's
// m), so the odd radices need no code.
template <class T, bool FWD, bool POW2>
__device__ __forceinline__ void run_stages(const KernelParams &p, T *re, T *im, int tid) {
  int s = 0;
  radix_run<T, 16, FWD>(p, &s, re, im, tid);
  radix_run<T, 8, FWD>(p, &s, re, im, tid);
  radix_run<T, 4, FWD>(p, &s, re, im, tid);
  radix_run<T, 2, FWD>(p, &s, re, im, tid);
  if constexpr (!POW2) {
    radix_run<T, 13, FWD>(p, &s, re, im, tid);
    radix_run<T, 11, FWD>(p, &s, re, im, tid);
    radix_run<T, 7, FWD>(p, &s, re, im, tid);
    radix_run<T, 5, FWD>(p, &s, re, im, tid);
    radix_run<T, 3, FWD>(p, &s, re, im, tid);
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
      x = fma_(re[a], c.x, -im[a] * c.y);
      y = fma_(re[a], c.y, im[a] * c.x);
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
    const T x = fma_(re[a], c.x, -im[a] * c.y), y = fma_(re[a], c.y, im[a] * c.x);
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
    const T yr = re[a], yi = -im[a];
    re[a] = fma_(yr, c.x, -yi * c.y);
    im[a] = fma_(yr, c.y, yi * c.x);
  }
  __syncthreads();
}

// All of one transform's work between load and store.
template <class T, Mode M>
__device__ __forceinline__ void transform(const KernelParams &p, T *re, T *im, int tid) {
  if constexpr (M == Mode::Bluestein) {
    const C2<T> *chirp = static_cast<const C2<T> *>(p.chirp) + p.dir * p.n;
    chirp_in<T>(p, chirp, re, im, tid);
    // One copy of the stages, run twice: two copies would not fit the registers.
#pragma unroll 1
    for (int pass = 0; pass < 2; ++pass) {
      if (pass == 1) kernel_product<T>(p, static_cast<const C2<T> *>(p.kernel_ft) + p.dir * p.len, re, im, tid);
      run_stages<T, true, true>(p, re, im, tid);
    }
    chirp_out<T>(p, chirp, re, im, tid);
  } else {
    run_stages<T, M == Mode::Forward, false>(p, re, im, tid);
  }
}

template <class T, Mode M>
__global__ void __launch_bounds__(kMaxThreads, 1)
    fft_kernel(const __grid_constant__ KernelParams p, const C2<T> *in, C2<T> *out) {
  extern __shared__ __align__(16) unsigned char smem[];
  T *sh = reinterpret_cast<T *>(smem);
  const int t = threadIdx.x / p.tpt, tid = threadIdx.x - t * p.tpt;
  const long long first = static_cast<long long>(blockIdx.x) * p.per_block;
  const int total = static_cast<int>(min(static_cast<long long>(p.per_block), p.batch - first)) * p.n;
  const size_t offset = static_cast<size_t>(first) * p.n;
  const Shared<T> s{sh, p};
  load(s, in + offset, total);
  __syncthreads();
  // Threads of a transform past the batch's end compute on garbage and
  // store nothing; they still meet every barrier.
  T *re = sh + t * p.slot, *im = re + p.per_block * p.slot;
  transform<T, M>(p, re, im, tid);
  store(s, out + offset, total);
}

// Launch geometry from the plan: whole transforms per block.
template <class T, Mode M>
cudaError_t launch(const KernelParams &p, const void *in, void *out, cudaStream_t stream) {
  const long long blocks = (p.batch + p.per_block - 1) / p.per_block;
  const size_t shared = 2 * sizeof(T) * p.per_block * p.slot;
  fft_kernel<T, M><<<static_cast<unsigned>(blocks), p.per_block * p.tpt, shared, stream>>>(
      p, static_cast<const C2<T> *>(in), static_cast<C2<T> *>(out));
  return cudaGetLastError();
}

template <class T>
cudaError_t launch_mode(Mode mode, const KernelParams &p, const void *in, void *out, cudaStream_t stream) {
  switch (mode) {
    case Mode::Forward: return launch<T, Mode::Forward>(p, in, out, stream);
    case Mode::Backward: return launch<T, Mode::Backward>(p, in, out, stream);
    default: return launch<T, Mode::Bluestein>(p, in, out, stream);
  }
}

template <class T>
cudaError_t allow_shared(Mode mode, int bytes) {
  const auto attr = cudaFuncAttributeMaxDynamicSharedMemorySize;
  switch (mode) {
    case Mode::Forward: return cudaFuncSetAttribute(fft_kernel<T, Mode::Forward>, attr, bytes);
    case Mode::Backward: return cudaFuncSetAttribute(fft_kernel<T, Mode::Backward>, attr, bytes);
    default: return cudaFuncSetAttribute(fft_kernel<T, Mode::Bluestein>, attr, bytes);
  }
}

}  // namespace gpufftw::engine::kernels
