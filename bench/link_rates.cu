// link_rates: the PCIe floor of several GPUs, measured in the run that uses
// it: each GPU's pinned host-to-device and device-to-host rate alone, then
// with every GPU copying at once (each its own link, all through the one
// host). Prints per GPU
//   LINK device h2d_alone d2h_alone h2d_all d2h_all
// (GB/s, GB = 1e9 bytes; "all": that GPU's rate while all copy the same way).
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>

#define CK(x)                                                                   \
  do {                                                                          \
    cudaError_t e = (x);                                                        \
    if (e != cudaSuccess) {                                                     \
      std::fprintf(stderr, "link_rates: %s: %s\n", #x, cudaGetErrorString(e)); \
      std::exit(1);                                                             \
    }                                                                           \
  } while (0)

namespace {

const size_t kBytes = size_t{1} << 30;

struct Gpu {
  int device;
  void *host, *dev;
  cudaStream_t stream;
};

// Seconds for one copy of kBytes on each GPU of `gpus`, all started at once.
std::vector<double> copy_all(std::vector<Gpu> &gpus, bool to_device) {
  std::vector<double> secs(gpus.size());
  std::vector<std::thread> threads;
  for (size_t k = 0; k < gpus.size(); ++k)
    threads.emplace_back([&, k] {
      Gpu &g = gpus[k];
      CK(cudaSetDevice(g.device));
      const auto t0 = std::chrono::steady_clock::now();
      if (to_device)
        CK(cudaMemcpyAsync(g.dev, g.host, kBytes, cudaMemcpyHostToDevice, g.stream));
      else
        CK(cudaMemcpyAsync(g.host, g.dev, kBytes, cudaMemcpyDeviceToHost, g.stream));
      CK(cudaStreamSynchronize(g.stream));
      secs[k] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    });
  for (std::thread &t : threads) t.join();
  return secs;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main() {
  int count = 0;
  CK(cudaGetDeviceCount(&count));
  std::vector<Gpu> gpus;
  for (int d = 0; d < count; ++d) {
    Gpu g{d, nullptr, nullptr, nullptr};
    CK(cudaSetDevice(d));
    CK(cudaHostAlloc(&g.host, kBytes, cudaHostAllocPortable));
    CK(cudaMalloc(&g.dev, kBytes));
    CK(cudaStreamCreateWithFlags(&g.stream, cudaStreamNonBlocking));
    gpus.push_back(g);
  }
  const int reps = 7;
  for (int d = 0; d < count; ++d) {
    std::vector<Gpu> one{gpus[d]};
    std::vector<double> h2d, d2h, h2d_all, d2h_all;
    for (int r = 0; r < reps; ++r) {
      h2d.push_back(copy_all(one, true)[0]);
      d2h.push_back(copy_all(one, false)[0]);
      h2d_all.push_back(copy_all(gpus, true)[d]);
      d2h_all.push_back(copy_all(gpus, false)[d]);
    }
    std::printf("LINK %d %.2f %.2f %.2f %.2f\n", d, kBytes / 1e9 / median(h2d), kBytes / 1e9 / median(d2h),
                kBytes / 1e9 / median(h2d_all), kBytes / 1e9 / median(d2h_all));
  }
  return 0;
}
