#include <cuda_fp16.h>

#include <algorithm>

#include "engine/fp16/device_half.h"

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

}  // namespace gpufftw::engine::fp16
