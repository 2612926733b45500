// pcie_rates: pinned host <-> device copy rates, measured in the run that
// uses them: host-to-device, device-to-host, and both at once (two streams).
// Prints "PCIE h2d_GBps d2h_GBps both_GBps" (GB = 1e9 bytes; both = total
// bytes moved either way per second).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#define CK(x)                                                                   \
  do {                                                                          \
    cudaError_t e = (x);                                                        \
    if (e != cudaSuccess) {                                                     \
      std::fprintf(stderr, "pcie_rates: %s: %s\n", #x, cudaGetErrorString(e)); \
      return 1;                                                                 \
    }                                                                           \
  } while (0)

int main() {
  const size_t bytes = size_t{512} << 20;
  void *h1, *h2, *d1, *d2;
  CK(cudaMallocHost(&h1, bytes));
  CK(cudaMallocHost(&h2, bytes));
  CK(cudaMalloc(&d1, bytes));
  CK(cudaMalloc(&d2, bytes));
  cudaStream_t s1, s2;
  CK(cudaStreamCreate(&s1));
  CK(cudaStreamCreate(&s2));
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  auto median = [](std::vector<float> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; };
  std::vector<float> h2d, d2h, both;
  for (int r = 0; r < 9; ++r) {
    float ms;
    CK(cudaEventRecord(a, s1));
    CK(cudaMemcpyAsync(d1, h1, bytes, cudaMemcpyHostToDevice, s1));
    CK(cudaEventRecord(b, s1));
    CK(cudaEventSynchronize(b));
    CK(cudaEventElapsedTime(&ms, a, b));
    h2d.push_back(ms);
    CK(cudaEventRecord(a, s1));
    CK(cudaMemcpyAsync(h2, d2, bytes, cudaMemcpyDeviceToHost, s1));
    CK(cudaEventRecord(b, s1));
    CK(cudaEventSynchronize(b));
    CK(cudaEventElapsedTime(&ms, a, b));
    d2h.push_back(ms);
    CK(cudaDeviceSynchronize());
    CK(cudaEventRecord(a, 0));
    CK(cudaMemcpyAsync(d1, h1, bytes, cudaMemcpyHostToDevice, s1));
    CK(cudaMemcpyAsync(h2, d2, bytes, cudaMemcpyDeviceToHost, s2));
    CK(cudaDeviceSynchronize());
    CK(cudaEventRecord(b, 0));
    CK(cudaEventSynchronize(b));
    CK(cudaEventElapsedTime(&ms, a, b));
    both.push_back(ms);
  }
  std::printf("PCIE %.2f %.2f %.2f\n", bytes / 1e6 / median(h2d), bytes / 1e6 / median(d2h),
              2 * bytes / 1e6 / median(both));
  return 0;
}
