// What the device-side benchmarks share: exit on a failed CUDA or cuFFT
// call, naming it, reproducible input on the device, and the median of
// executes timed with CUDA events.
#pragma once

#include <cuda_runtime_api.h>
#include <cufft.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK_CUDA(call)                                                                         \
  do {                                                                                           \
    const cudaError_t e_ = (call);                                                               \
    if (e_ != cudaSuccess) {                                                                     \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
      std::exit(1);                                                                              \
    }                                                                                            \
  } while (0)
#define CHECK_CUFFT(call)                                                                                    \
  do {                                                                                                       \
    const cufftResult r_ = (call);                                                                           \
    if (r_ != CUFFT_SUCCESS) {                                                                               \
      std::fprintf(stderr, "%s:%d %s: cufftResult %d\n", __FILE__, __LINE__, #call, static_cast<int>(r_)); \
      std::exit(1);                                                                                          \
    }                                                                                                        \
  } while (0)

// Milliseconds: the median of `reps` executes on the default stream, each
// between its own pair of events, after three to warm up.
template <class F>
double median_ms(int reps, F &&execute) {
  for (int i = 0; i < 3; ++i) execute();
  std::vector<cudaEvent_t> ev(2 * reps);
  for (auto &e : ev) CHECK_CUDA(cudaEventCreate(&e));
  for (int i = 0; i < reps; ++i) {
    CHECK_CUDA(cudaEventRecord(ev[2 * i]));
    execute();
    CHECK_CUDA(cudaEventRecord(ev[2 * i + 1]));
  }
  CHECK_CUDA(cudaEventSynchronize(ev.back()));
  CHECK_CUDA(cudaGetLastError());
  std::vector<double> ms(reps);
  for (int i = 0; i < reps; ++i) {
    float t = 0;
    CHECK_CUDA(cudaEventElapsedTime(&t, ev[2 * i], ev[2 * i + 1]));
    ms[i] = t;
  }
  for (auto &e : ev) CHECK_CUDA(cudaEventDestroy(e));
  std::sort(ms.begin(), ms.end());
  return ms[reps / 2];
}

// Reproducible values in [-0.5, 0.5) from a hash of the index and a seed.
template <class T>
__global__ void fill_kernel(T *x, size_t count, unsigned seed) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    unsigned h = static_cast<unsigned>(i) * 0x9E3779B9u ^ seed ^ static_cast<unsigned>(i >> 32) * 0x85EBCA6Bu;
    h ^= h >> 16;
    h *= 0x7FEB352Du;
    h ^= h >> 15;
    h *= 0x846CA68Bu;
    h ^= h >> 16;
    x[i] = static_cast<T>(h) * static_cast<T>(2.3283064365386963e-10) - static_cast<T>(0.5);
  }
}

// `reals` floats (f32) or doubles of x so filled, on the default stream.
inline void fill_reals(void *x, size_t reals, bool f32, unsigned seed) {
  if (f32)
    fill_kernel<<<1024, 256>>>(static_cast<float *>(x), reals, seed);
  else
    fill_kernel<<<1024, 256>>>(static_cast<double *>(x), reals, seed);
  CHECK_CUDA(cudaGetLastError());
}
