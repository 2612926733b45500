// The FP16 tensor-core FFT kernel: each block loads T transforms into
// shared memory (taking the radix-R first step on the way in), runs the
// radix-16 steps there as mma.sync products with the DFT matrix, and stores
// them back in natural order. One pass through device memory per axis.
#include <cuda_fp16.h>

#include <cstdint>

#include "engine/fp16/dft_fragments.h"
#include "engine/fp16/fp16_kernels.h"
#include "engine/fp16/small_dft.h"
#include "engine/fp16/tile_map.h"

namespace gpufftw::engine::fp16 {
namespace {

constexpr int kThreads = 256;

// Transforms (rows) or columns a block holds: 32 KB of rows; 8 columns (32
// bytes of each row of the axis), 4 at n = 4096 so that three blocks fit
// on an SM.
FP16_CONSTEXPR int transforms_per_block(bool cols, int n) { return cols ? (n == 4096 ? 4 : 8) : 8192 / n; }

__device__ __forceinline__ unsigned pack(float re, float im) {
  const __half2 h = __floats2half2_rn(re, im);
  return *reinterpret_cast<const unsigned *>(&h);
}
__device__ __forceinline__ float2 unpack(unsigned v) {
  return __half22float2(*reinterpret_cast<const __half2 *>(&v));
}

// d += A * B for one m16n8k16 tile, f16 inputs, f32 accumulation: f16
// accumulation would round each 16-term sum to 11 bits before the twiddle.
__device__ __forceinline__ void mma(float (&d)[4], const unsigned *a, unsigned b0, unsigned b1) {
#if __CUDA_ARCH__ >= 800
  asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
#else
  __trap();  // Fp16Plan::create refuses devices below compute capability 8.0
#endif
}

// (re, im) *= exp(Sign*2*pi*i*k/L), the angle reduced to [-pi, pi] where
// __sincosf's error stays near 2^-21.
template <int L, int Sign>
__device__ __forceinline__ void twiddle(float &re, float &im, unsigned k) {
  int r = static_cast<int>(k & (L - 1));
  if (r > L / 2) r -= L;
  float s, c;
  __sincosf(static_cast<float>(Sign) * (6.283185307179586f / L) * static_cast<float>(r), &s, &c);
  const float x = re * c - im * s;
  im = re * s + im * c;
  re = x;
}

// Flat shared-memory index of element j of transform t.
template <bool Cols, int N, int T>
__device__ __forceinline__ unsigned flat(unsigned t, unsigned j) {
  return Cols ? t + T * j : t * N + j;
}

// V consecutive words (V = 4: one 16-byte access).
template <int V>
__device__ __forceinline__ void get(const unsigned *p, unsigned (&w)[V]) {
  if constexpr (V == 4) {
    const uint4 v = *reinterpret_cast<const uint4 *>(p);
    w[0] = v.x, w[1] = v.y, w[2] = v.z, w[3] = v.w;
  } else {
    w[0] = *p;
  }
}
template <int V>
__device__ __forceinline__ void put(unsigned *p, const unsigned (&w)[V]) {
  if constexpr (V == 4) *reinterpret_cast<uint4 *>(p) = make_uint4(w[0], w[1], w[2], w[3]);
  else *p = w[0];
}

// Device memory to shared memory, with the radix-R step at stride N/R and
// its twiddles exp(sign*2*pi*i*m*k/N). A thread takes V neighbours at once
// (rows: m .. m+V-1 of one transform; columns: transforms t .. t+V-1), 8
// accesses of V words in flight.
template <bool Cols, int N, int T, int V, int Sign>
__device__ __forceinline__ void load(unsigned *s, const unsigned *g, long long stride, unsigned valid) {
  constexpr int R = first_radix(N), U = 8 / R;
  constexpr unsigned items = T * N / (R * V), sub = N / R;
  for (unsigned i0 = threadIdx.x; i0 < items; i0 += kThreads * U) {
    unsigned x[U][R][V];
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const unsigned e = V * (i0 + u * kThreads), t = Cols ? e % T : e / sub, m = Cols ? e / T : e % sub;
#pragma unroll
      for (int k = 0; k < R; ++k) {
        const unsigned j = m + sub * k;
        if (e < V * items && (Cols || t < valid)) get<V>(g + (Cols ? j * stride + t : t * N + j), x[u][k]);
        else
#pragma unroll
          for (int v = 0; v < V; ++v) x[u][k][v] = 0u;
      }
    }
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const unsigned e = V * (i0 + u * kThreads), t = Cols ? e % T : e / sub, m = Cols ? e / T : e % sub;
      if (e >= V * items) break;
      unsigned y[R][V];
#pragma unroll
      for (int v = 0; v < V; ++v) {
        float re[R], im[R];
#pragma unroll
        for (int k = 0; k < R; ++k) {
          const float2 w = unpack(x[u][k][v]);
          re[k] = w.x, im[k] = w.y;
        }
        small_dft<R, Sign>(re, im);
#pragma unroll
        for (int k = 0; k < R; ++k) {
          const int slot = bitreverse(k, R);
          if (R > 1) twiddle<N, Sign>(re[slot], im[slot], (Cols ? m : m + v) * k);
          y[k][v] = pack(re[slot], im[slot]);
        }
      }
#pragma unroll
      for (int k = 0; k < R; ++k) put<V>(&s[swz(flat<Cols, N, T>(t, m + sub * k))], y[k]);
    }
  }
}

// One radix-16 step with stride M over the block: each warp takes tiles of
// 8 columns; a tile is read, multiplied by the four A tiles, twiddled and
// written back to the same 128 values.
template <bool Cols, int N, int T, int M, int Sign>
__device__ __forceinline__ void radix16(unsigned *s, const unsigned (&a)[kFragmentRegs]) {
  constexpr unsigned tiles = T * N / 128, ps = point_stride<Cols, T, M>();
  // Columns 2q and 2q+1 sit side by side except along rows at M = 1.
  constexpr bool pair = Cols || M > 1;
  const unsigned lane = threadIdx.x & 31, g = lane >> 2, q = lane & 3;
  // A column's base and its points' offsets share no bits (tile_map.h), so
  // each slot is swz(base) ^ swz(offset): the offsets' part once a step.
  unsigned in_off[4], out_off[2];
#pragma unroll
  for (int j = 0; j < 4; ++j) in_off[j] = swz(ps * b_point(q, j));
#pragma unroll
  for (int u = 0; u < 2; ++u) out_off[u] = swz(ps * d_point(g, u));
  for (unsigned tile = threadIdx.x >> 5; tile < tiles; tile += kThreads / 32) {
    const unsigned c0 = tile * 8, in = swz(column<Cols, N, T, M>(c0 + g).base);
    unsigned x[4];
#pragma unroll
    for (int j = 0; j < 4; ++j) x[j] = s[in ^ in_off[j]];
    // The tile is written back over values other lanes of the warp read:
    // mma.sync gathers their registers but orders no shared memory, so
    // the warp's reads are ordered before its writes here.
    __syncwarp();
    float d[2][4] = {};
    mma(d[0], a + 0, x[0], x[1]);
    mma(d[0], a + 4, x[2], x[3]);
    mma(d[1], a + 8, x[0], x[1]);
    mma(d[1], a + 12, x[2], x[3]);
    const Column out[2] = {column<Cols, N, T, M>(c0 + 2 * q), column<Cols, N, T, M>(c0 + 2 * q + 1)};
    const unsigned out_base[2] = {swz(out[0].base), swz(out[1].base)};
#pragma unroll
    for (int u = 0; u < 2; ++u) {
      const unsigned p = d_point(g, u);
      unsigned v[2];
#pragma unroll
      for (int e = 0; e < 2; ++e) {
        float re = d[u][e], im = d[u][2 + e];
        if (M > 1) twiddle<16 * M, Sign>(re, im, out[e].m * p);
        v[e] = pack(re, im);
      }
      if (pair) {
        *reinterpret_cast<uint2 *>(&s[out_base[0] ^ out_off[u]]) = make_uint2(v[0], v[1]);
      } else {
        s[out_base[0] ^ out_off[u]] = v[0];
        s[out_base[1] ^ out_off[u]] = v[1];
      }
    }
  }
}

template <bool Cols, int N, int T, int M, int Sign>
__device__ __forceinline__ void radix16_steps(unsigned *s, const unsigned (&a)[kFragmentRegs]) {
  radix16<Cols, N, T, M, Sign>(s, a);
  __syncthreads();
  if constexpr (M > 1) radix16_steps<Cols, N, T, M / 16, Sign>(s, a);
}

// Shared memory back to device memory in natural order, V words a thread.
template <bool Cols, int N, int T, int V>
__device__ __forceinline__ void store(const unsigned *s, unsigned *g, long long stride, unsigned valid) {
  constexpr unsigned items = T * N / V;
  for (unsigned i = threadIdx.x; i < items; i += kThreads) {
    const unsigned e = V * i, t = Cols ? e % T : e / N, f = Cols ? e / T : e % N;
    unsigned w[V];
    if (Cols) {
      get<V>(&s[swz(flat<Cols, N, T>(t, position<N>(f)))], w);
    } else {
#pragma unroll
      for (int v = 0; v < V; ++v) w[v] = s[swz(flat<Cols, N, T>(t, position<N>(f + v)))];
    }
    if (Cols || t < valid) put<V>(g + (Cols ? f * stride + t : t * N + f), w);
  }
}

// in and out may be the same array: a block reads all it writes first.
// V = 4 where both arrays are 16-byte aligned.
template <bool Cols, int N, int Sign, int V>
__global__ void __launch_bounds__(kThreads, 3) fft_kernel(const unsigned *in, unsigned *out, long long count,
                                                       long long stride, const unsigned *fragments) {
  constexpr int T = transforms_per_block(Cols, N);
  extern __shared__ unsigned s[];
  unsigned a[kFragmentRegs];
#pragma unroll
  for (int i = 0; i < kFragmentRegs; ++i) a[i] = fragments[(threadIdx.x & 31) * kFragmentRegs + i];
  long long offset;
  unsigned valid = T;
  if (Cols) {
    const long long groups = stride / T, o = blockIdx.x / groups;
    offset = o * N * stride + (blockIdx.x - o * groups) * T;
  } else {
    const long long t0 = static_cast<long long>(blockIdx.x) * T;
    offset = t0 * N;
    if (count - t0 < T) valid = static_cast<unsigned>(count - t0);
  }
  load<Cols, N, T, V, Sign>(s, in + offset, stride, valid);
  __syncthreads();
  radix16_steps<Cols, N, T, N / first_radix(N) / 16, Sign>(s, a);
  store<Cols, N, T, V>(s, out + offset, stride, valid);
}

using Kernel = void (*)(const unsigned *, unsigned *, long long, long long, const unsigned *);

template <bool Cols, int V>
Kernel pick(int n, int sign) {
  const bool fw = sign < 0;
  switch (n) {
    case 256: return fw ? fft_kernel<Cols, 256, -1, V> : fft_kernel<Cols, 256, 1, V>;
    case 512: return fw ? fft_kernel<Cols, 512, -1, V> : fft_kernel<Cols, 512, 1, V>;
    case 1024: return fw ? fft_kernel<Cols, 1024, -1, V> : fft_kernel<Cols, 1024, 1, V>;
    case 2048: return fw ? fft_kernel<Cols, 2048, -1, V> : fft_kernel<Cols, 2048, 1, V>;
    case 4096: return fw ? fft_kernel<Cols, 4096, -1, V> : fft_kernel<Cols, 4096, 1, V>;
    default: return nullptr;
  }
}
Kernel pick(const Pass &p, int sign, bool vector) {
  if (vector) return p.cols ? pick<true, 4>(p.n, sign) : pick<false, 4>(p.n, sign);
  return p.cols ? pick<true, 1>(p.n, sign) : pick<false, 1>(p.n, sign);
}

}  // namespace

int per_block(const Pass &p) { return transforms_per_block(p.cols, p.n); }
int shared_bytes(const Pass &p) { return per_block(p) * p.n * static_cast<int>(sizeof(__half2)); }

cudaError_t allow_shared(const Pass &p) {
  for (int sign : {-1, 1})
    for (bool vector : {false, true}) {
      const Kernel k = pick(p, sign, vector);
      if (!k) return cudaErrorInvalidValue;
      const cudaError_t e = cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, shared_bytes(p));
      if (e != cudaSuccess) return e;
    }
  return cudaSuccess;
}

cudaError_t launch(const Pass &p, int sign, const void *in, void *out, const unsigned *fragments, cudaStream_t stream) {
  // 16-byte accesses where the arrays allow, except on columns 4 wide: one
  // 16-byte access per row there makes each warp instruction touch 32 rows,
  // and such a column pass runs slower than with 4-byte accesses
  // (docs/fp16.md, "Kernels").
  const bool vector = ((reinterpret_cast<uintptr_t>(in) | reinterpret_cast<uintptr_t>(out)) & 15) == 0 &&
                      !(p.cols && per_block(p) < 8);
  const Kernel k = pick(p, sign, vector);
  if (!k) return cudaErrorInvalidValue;
  const long long t = per_block(p), blocks = p.cols ? p.count * (p.stride / t) : (p.count + t - 1) / t;
  k<<<static_cast<unsigned>(blocks), kThreads, shared_bytes(p), stream>>>(static_cast<const unsigned *>(in),
                                                                         static_cast<unsigned *>(out), p.count, p.stride,
                                                                         fragments);
  return cudaGetLastError();
}

}  // namespace gpufftw::engine::fp16
