// Formulas (y the r2r's output, x its input, n the dimension's size; FFTW's
// definitions, checked against direct sums for every kind and n <= 9):
//   R2HC     r2c of x; y_k = Re X_k (2k <= n), y_{n-k} = Im X_k (0 < 2k < n)
//   HC2R     c2r of X_k = y_k + i y_{n-k} (0 < 2k < n), X_0 and X_{n/2} real
//   DHT      r2c of x; y_k = Re X_k - Im X_k
//   REDFT10  Makhoul: r2c of v = (x_0, x_2, x_4, ..., x_5, x_3, x_1);
//            y_k = 2 Re(e^{-i pi k / 2n} V_k)
//   RODFT10  REDFT10 of (-1)^j x_j, read backwards: y_k = DCT-II_{n-1-k}
//   REDFT01  Makhoul's inverse: c2r of V_k = (x_k - i x_{n-k}) e^{i pi k / 2n}
//            (x_n = 0); y_{2m} = v_m, y_{2m+1} = v_{n-1-m}
//   RODFT01  (-1)^k REDFT01 of x reversed
//   REDFT00  r2c of the even extension (x_0 .. x_{n-1}, x_{n-2} .. x_1),
//            N = 2(n-1); y_k = Re X_k
//   RODFT00  r2c of the odd extension (0, x_0 .. x_{n-1}, 0, -x_{n-1} .. -x_0),
//            N = 2(n+1); y_k = -Im X_{k+1}
//   REDFT11  c2c of z_j = x_j e^{-i pi j / 2n} zero-padded to 2n;
//            y_k = 2 Re(e^{-i pi (k + 1/2) / 2n} Z_k)
//   RODFT11  the same DFT; y_k = -2 Im(e^{-i pi (k + 1/2) / 2n} Z_k)
#include "engine/r2r/r2r_kernels.h"

#include "engine/kernels/cuda_complex.h"

namespace gpufftw::engine {
namespace {

// sin and cos of pi * num / den, the ratio formed in double so that a
// float transform of 2^24 points keeps its angles.
__device__ inline void sin_cos_pi(long long num, long long den, float *s, float *c) {
  sincospif(static_cast<float>(static_cast<double>(num) / static_cast<double>(den)), s, c);
}
__device__ inline void sin_cos_pi(long long num, long long den, double *s, double *c) {
  sincospi(static_cast<double>(num) / static_cast<double>(den), s, c);
}

unsigned blocks_for(long long total) {
  const long long b = (total + 255) / 256;
  return static_cast<unsigned>(b < 65535 ? (b > 0 ? b : 1) : 65535);
}

// Threads walk [outer][position][inner], inner fastest: the line's side
// is read or written coalesced, and for the last dimension (inner 1) both.
template <class R>
__global__ void pre_kernel(R2rKind kind, AxisShape a, long long len, const R *x, R *work) {
  using C = complex_t<R>;
  C *cw = reinterpret_cast<C *>(work);
  const long long n = a.n, inner = a.inner, total = a.outer * len * inner;
  for (long long t = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; t < total;
       t += static_cast<long long>(gridDim.x) * blockDim.x) {
    const long long i = t % inner, rest = t / inner, p = rest % len, o = rest / len;
    const R *line = x + o * n * inner + i;
    auto at = [&](long long j) { return line[j * inner]; };
    const long long w = (o * inner + i) * len + p;
    switch (kind) {
      case R2rKind::R2HC:
      case R2rKind::DHT: work[w] = at(p); break;
      case R2rKind::REDFT10:
      case R2rKind::RODFT10: {
        const long long j = 2 * p < n ? 2 * p : 2 * (n - 1 - p) + 1;
        work[w] = kind == R2rKind::RODFT10 && (j & 1) ? -at(j) : at(j);
        break;
      }
      case R2rKind::REDFT00: work[w] = at(p < n ? p : len - p); break;
      case R2rKind::RODFT00:
        work[w] = p == 0 || p == n + 1 ? R(0) : p <= n ? at(p - 1) : -at(len - p - 1);
        break;
      case R2rKind::HC2R: cw[w] = C{at(p), p > 0 && 2 * p < n ? at(n - p) : R(0)}; break;
      case R2rKind::REDFT01:
      case R2rKind::RODFT01: {
        const bool rev = kind == R2rKind::RODFT01;
        const R u = at(rev ? n - 1 - p : p), v = p > 0 ? at(rev ? p - 1 : n - p) : R(0);
        R s, c;
        sin_cos_pi(p, 2 * n, &s, &c);
        cw[w] = C{u * c + v * s, u * s - v * c};
        break;
      }
      case R2rKind::REDFT11:
      case R2rKind::RODFT11: {
        R s = 0, c = 0;
        if (p < n) sin_cos_pi(p, 2 * n, &s, &c);
        const R u = p < n ? at(p) : R(0);
        cw[w] = C{u * c, -u * s};
        break;
      }
    }
  }
}

template <class R>
__global__ void post_kernel(R2rKind kind, AxisShape a, long long len, const R *work, R *x) {
  using C = complex_t<R>;
  const long long n = a.n, inner = a.inner, total = a.outer * n * inner;
  for (long long t = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; t < total;
       t += static_cast<long long>(gridDim.x) * blockDim.x) {
    const long long i = t % inner, rest = t / inner, k = rest % n, o = rest / n;
    const long long b = o * inner + i;
    const R *v = work + b * len;
    const C *h = reinterpret_cast<const C *>(work) + b * len;
    // X_m for any m < n, from the half of the spectrum an r2c of n keeps.
    auto spectrum = [&](long long m) {
      const C z = h[2 * m <= n ? m : n - m];
      return 2 * m <= n ? z : C{z.x, -z.y};
    };
    R y = 0;
    switch (kind) {
      case R2rKind::R2HC: y = 2 * k <= n ? h[k].x : h[n - k].y; break;
      case R2rKind::DHT: {
        const C z = spectrum(k);
        y = z.x - z.y;
        break;
      }
      case R2rKind::REDFT10:
      case R2rKind::RODFT10: {
        const long long m = kind == R2rKind::RODFT10 ? n - 1 - k : k;
        const C z = spectrum(m);
        R s, c;
        sin_cos_pi(m, 2 * n, &s, &c);
        y = 2 * (z.x * c + z.y * s);
        break;
      }
      case R2rKind::REDFT00: y = h[k].x; break;
      case R2rKind::RODFT00: y = -h[k + 1].y; break;
      case R2rKind::HC2R: y = v[k]; break;
      case R2rKind::REDFT01:
      case R2rKind::RODFT01:
        y = k % 2 == 0 ? v[k / 2] : v[n - 1 - k / 2];
        if (kind == R2rKind::RODFT01 && k % 2) y = -y;
        break;
      case R2rKind::REDFT11:
      case R2rKind::RODFT11: {
        const C z = h[k];
        R s, c;
        sin_cos_pi(2 * k + 1, 4 * n, &s, &c);
        y = kind == R2rKind::REDFT11 ? 2 * (c * z.x + s * z.y) : -2 * (c * z.y - s * z.x);
        break;
      }
    }
    x[(o * n + k) * inner + i] = y;
  }
}

template <class R>
__global__ void scale_kernel(R *x, long long count, R factor) {
  for (long long t = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; t < count;
       t += static_cast<long long>(gridDim.x) * blockDim.x)
    x[t] *= factor;
}

}  // namespace

template <class R>
cudaError_t r2r_pre(R2rKind kind, const AxisShape &a, long long len, const R *x, R *work, cudaStream_t stream) {
  pre_kernel<R><<<blocks_for(a.outer * len * a.inner), 256, 0, stream>>>(kind, a, len, x, work);
  return cudaGetLastError();
}

template <class R>
cudaError_t r2r_post(R2rKind kind, const AxisShape &a, long long len, const R *work, R *x, cudaStream_t stream) {
  post_kernel<R><<<blocks_for(a.outer * a.n * a.inner), 256, 0, stream>>>(kind, a, len, work, x);
  return cudaGetLastError();
}

template <class R>
cudaError_t r2r_scale(R *x, long long count, R factor, cudaStream_t stream) {
  scale_kernel<R><<<blocks_for(count), 256, 0, stream>>>(x, count, factor);
  return cudaGetLastError();
}

template cudaError_t r2r_pre<float>(R2rKind, const AxisShape &, long long, const float *, float *, cudaStream_t);
template cudaError_t r2r_pre<double>(R2rKind, const AxisShape &, long long, const double *, double *, cudaStream_t);
template cudaError_t r2r_post<float>(R2rKind, const AxisShape &, long long, const float *, float *, cudaStream_t);
template cudaError_t r2r_post<double>(R2rKind, const AxisShape &, long long, const double *, double *, cudaStream_t);
template cudaError_t r2r_scale<float>(float *, long long, float, cudaStream_t);
template cudaError_t r2r_scale<double>(double *, long long, double, cudaStream_t);

}  // namespace gpufftw::engine
