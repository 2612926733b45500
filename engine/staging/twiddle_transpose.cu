#include "engine/staging/twiddle_transpose.h"

#include "engine/kernels/cuda_complex.h"

namespace gpufftw::engine {
namespace {

constexpr int kTile = 32, kRowsPerPass = 8;

// W_n^m for 0 <= m < n: 2m/n reduced to (-1, 1] in integers, where it is
// exact, so that sincospi sees one rounding of the quotient and no large
// angle (the error stays near double's eps for any n that fits).
__device__ double2 twiddle(long long m, long long n, double sign) {
  long long twice = 2 * m;
  if (twice > n) twice -= 2 * n;
  double s, c;
  sincospi(static_cast<double>(twice) / static_cast<double>(n), &s, &c);
  return make_double2(c, sign * s);
}

// Where n is 0, no twiddle.
struct Twiddle {
  long long row0 = 0, col0 = 0, n = 0;
  double sign = 0;
};

// One 32 x 32 tile a block at a time (tiles strided over the grid): read
// along src's rows, written along dst's, through shared memory padded
// against bank conflicts.
template <class C>
__global__ void transpose_kernel(const C *src, C *dst, long long rows, long long cols, long long ld, Twiddle tw) {
  __shared__ C tile[kTile][kTile + 1];
  const long long tiles_r = (rows + kTile - 1) / kTile, tiles_c = (cols + kTile - 1) / kTile;
  for (long long t = blockIdx.x; t < tiles_r * tiles_c; t += gridDim.x) {
    const long long r0 = (t / tiles_c) * kTile, c0 = (t % tiles_c) * kTile;
    for (int i = threadIdx.y; i < kTile; i += kRowsPerPass) {
      const long long r = r0 + i, c = c0 + threadIdx.x;
      if (r < rows && c < cols) tile[i][threadIdx.x] = src[r * cols + c];
    }
    __syncthreads();
    for (int i = threadIdx.y; i < kTile; i += kRowsPerPass) {
      const long long c = c0 + i, r = r0 + threadIdx.x;
      if (r < rows && c < cols) {
        C v = tile[threadIdx.x][i];
        if (tw.n) {
          const double2 w = twiddle((tw.row0 + r) * (tw.col0 + c), tw.n, tw.sign);
          const double re = static_cast<double>(v.x), im = static_cast<double>(v.y);
          v.x = static_cast<decltype(v.x)>(re * w.x - im * w.y);
          v.y = static_cast<decltype(v.x)>(re * w.y + im * w.x);
        }
        dst[c * ld + r] = v;
      }
    }
    __syncthreads();
  }
}

template <class R>
cudaError_t launch(const R *src, R *dst, long long rows, long long cols, long long ld, Twiddle tw,
                   cudaStream_t stream) {
  using C = complex_t<R>;
  const long long tiles = ((rows + kTile - 1) / kTile) * ((cols + kTile - 1) / kTile);
  const unsigned blocks = static_cast<unsigned>(tiles < 65535 ? tiles : 65535);
  transpose_kernel<C><<<blocks, dim3(kTile, kRowsPerPass), 0, stream>>>(
      reinterpret_cast<const C *>(src), reinterpret_cast<C *>(dst), rows, cols, ld, tw);
  return cudaGetLastError();
}

}  // namespace

template <class R>
cudaError_t transpose(const R *src, R *dst, long long rows, long long cols, long long ld, cudaStream_t stream) {
  return launch(src, dst, rows, cols, ld, Twiddle{}, stream);
}

template <class R>
cudaError_t twiddle_transpose(const R *src, R *dst, long long rows, long long cols, long long row0, long long col0,
                              long long n, int sign, cudaStream_t stream) {
  return launch(src, dst, rows, cols, rows, Twiddle{row0, col0, n, static_cast<double>(sign)}, stream);
}

template cudaError_t transpose<float>(const float *, float *, long long, long long, long long, cudaStream_t);
template cudaError_t transpose<double>(const double *, double *, long long, long long, long long, cudaStream_t);
template cudaError_t twiddle_transpose<float>(const float *, float *, long long, long long, long long, long long,
                                              long long, int, cudaStream_t);
template cudaError_t twiddle_transpose<double>(const double *, double *, long long, long long, long long, long long,
                                               long long, int, cudaStream_t);

}  // namespace gpufftw::engine
