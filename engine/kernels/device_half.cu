#include <cuda_fp16.h>

#include <algorithm>

#include "engine/kernels/device_half.h"

namespace gpufftw::engine::fp16 {
namespace {

constexpr int kThreads = 256;

__global__ void to_half_kernel(const float *__restrict__ src, __half *__restrict__ dst, long long count) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<long long>(gridDim.x) * blockDim.x)
    dst[i] = __float2half_rn(src[i]);
}

__global__ void to_float_kernel(const __half *__restrict__ src, float *__restrict__ dst, long long count) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<long long>(gridDim.x) * blockDim.x)
    dst[i] = __half2float(src[i]);
}

__global__ void rows_to_half_kernel(const float *__restrict__ src, long long spitch, __half *__restrict__ dst,
                                    long long dpitch, long long width, long long count) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const long long row = i / width, col = i - row * width;
    dst[row * dpitch + col] = __float2half_rn(src[row * spitch + col]);
  }
}

// A half's bits as the real part of a __half2 whose imaginary part is +0:
// the real part lies first, in the word's low half.
__global__ void real_to_complex_kernel(const uint16_t *__restrict__ src, long long pitch, long long n,
                                       long long count, uint32_t *__restrict__ dst) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const long long row = i / n;
    dst[i] = src[row * pitch + (i - row * n)];
  }
}

unsigned blocks(long long count) {
  return static_cast<unsigned>(std::min<long long>((count + kThreads - 1) / kThreads, 1 << 16));
}

}  // namespace

cudaError_t device_to_half(const float *src, uint16_t *dst, long long count, cudaStream_t stream) {
  if (count == 0) return cudaSuccess;
  to_half_kernel<<<blocks(count), kThreads, 0, stream>>>(src, reinterpret_cast<__half *>(dst), count);
  return cudaGetLastError();
}

cudaError_t device_to_float(const uint16_t *src, float *dst, long long count, cudaStream_t stream) {
  if (count == 0) return cudaSuccess;
  to_float_kernel<<<blocks(count), kThreads, 0, stream>>>(reinterpret_cast<const __half *>(src), dst, count);
  return cudaGetLastError();
}

cudaError_t device_rows_to_half(const float *src, long long spitch, uint16_t *dst, long long dpitch, long long width,
                                long long rows, cudaStream_t stream) {
  const long long count = width * rows;
  if (count == 0) return cudaSuccess;
  rows_to_half_kernel<<<blocks(count), kThreads, 0, stream>>>(src, spitch, reinterpret_cast<__half *>(dst), dpitch,
                                                              width, count);
  return cudaGetLastError();
}

cudaError_t real_to_complex_half(const uint16_t *src, long long pitch, long long n, long long rows, uint32_t *dst,
                                 cudaStream_t stream) {
  const long long count = n * rows;
  if (count == 0) return cudaSuccess;
  real_to_complex_kernel<<<blocks(count), kThreads, 0, stream>>>(src, pitch, n, count, dst);
  return cudaGetLastError();
}

}  // namespace gpufftw::engine::fp16
