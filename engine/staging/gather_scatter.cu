#include "engine/staging/gather_scatter.h"

namespace gpufftw::engine {
namespace {

__device__ long long offset_of(long long i, const Strided &a) {
  long long off = 0;
  for (int k = a.naxes - 1; k >= 0; --k) {
    off += (i % a.n[k]) * a.stride[k];
    i /= a.n[k];
  }
  return off;
}

template <class R>
__global__ void gather_kernel(Strided a, R *dense, long long total) {
  const R *re = static_cast<const R *>(a.comp[0]), *im = static_cast<const R *>(a.comp[1]);
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < total;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const long long o = offset_of(i, a) * a.step;
    if (im) {
      dense[2 * i] = re[o];
      dense[2 * i + 1] = im[o];
    } else {
      dense[i] = re[o];
    }
  }
}

template <class R>
__global__ void scatter_kernel(const R *dense, Strided a, long long total) {
  R *re = static_cast<R *>(const_cast<void *>(a.comp[0])), *im = static_cast<R *>(const_cast<void *>(a.comp[1]));
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < total;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const long long o = offset_of(i, a) * a.step;
    if (im) {
      re[o] = dense[2 * i];
      im[o] = dense[2 * i + 1];
    } else {
      re[o] = dense[i];
    }
  }
}

unsigned blocks_for(long long total) {
  const long long b = (total + 255) / 256;
  return static_cast<unsigned>(b < 65535 ? (b > 0 ? b : 1) : 65535);
}

}  // namespace

template <class R>
cudaError_t gather(const Strided &src, R *dense, long long total, cudaStream_t stream) {
  gather_kernel<R><<<blocks_for(total), 256, 0, stream>>>(src, dense, total);
  return cudaGetLastError();
}

template <class R>
cudaError_t scatter(const R *dense, const Strided &dst, long long total, cudaStream_t stream) {
  scatter_kernel<R><<<blocks_for(total), 256, 0, stream>>>(dense, dst, total);
  return cudaGetLastError();
}

template cudaError_t gather<float>(const Strided &, float *, long long, cudaStream_t);
template cudaError_t gather<double>(const Strided &, double *, long long, cudaStream_t);
template cudaError_t scatter<float>(const float *, const Strided &, long long, cudaStream_t);
template cudaError_t scatter<double>(const double *, const Strided &, long long, cudaStream_t);

}  // namespace gpufftw::engine
