// link_rates: the PCIe floor of several GPUs, measured in the run that uses
// it: each GPU's pinned host-to-device and device-to-host rate alone, then
// with every GPU copying at once (each its own link, all through the one
// host), then with every GPU copying both ways at once (what a pipeline of
// batches does: one chunk in while another goes out). Prints per GPU
//   LINK device h2d_alone d2h_alone h2d_all d2h_all h2d_duplex d2h_duplex
// (GB/s, GB = 1e9 bytes; "all": that GPU's rate while all copy the same way;
// "duplex": each way's rate while all copy both ways).
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <thread>
#include <utility>
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
  // The second direction of the duplex copies: buffers and a stream of its own.
  void *host_back, *dev_back;
  cudaStream_t stream_back;
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

// Seconds of each direction's copy of kBytes, {h2d, d2h} per GPU, with every
// GPU copying both ways at once; CUDA events time each direction on its own
// stream, so the one that ends first is not charged the other's time.
std::vector<std::pair<double, double>> copy_duplex(std::vector<Gpu> &gpus) {
  std::vector<std::pair<double, double>> secs(gpus.size());
  std::vector<std::thread> threads;
  for (size_t k = 0; k < gpus.size(); ++k)
    threads.emplace_back([&, k] {
      Gpu &g = gpus[k];
      CK(cudaSetDevice(g.device));
      cudaEvent_t ev[4];
      for (cudaEvent_t &event : ev) CK(cudaEventCreate(&event));
      CK(cudaEventRecord(ev[0], g.stream));
      CK(cudaEventRecord(ev[2], g.stream_back));
      CK(cudaMemcpyAsync(g.dev, g.host, kBytes, cudaMemcpyHostToDevice, g.stream));
      CK(cudaMemcpyAsync(g.host_back, g.dev_back, kBytes, cudaMemcpyDeviceToHost, g.stream_back));
      CK(cudaEventRecord(ev[1], g.stream));
      CK(cudaEventRecord(ev[3], g.stream_back));
      CK(cudaEventSynchronize(ev[1]));
      CK(cudaEventSynchronize(ev[3]));
      float h2d_ms = 0, d2h_ms = 0;
      CK(cudaEventElapsedTime(&h2d_ms, ev[0], ev[1]));
      CK(cudaEventElapsedTime(&d2h_ms, ev[2], ev[3]));
      secs[k] = {h2d_ms / 1e3, d2h_ms / 1e3};
      for (cudaEvent_t event : ev) CK(cudaEventDestroy(event));
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
    Gpu g{d, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr};
    CK(cudaSetDevice(d));
    CK(cudaHostAlloc(&g.host, kBytes, cudaHostAllocPortable));
    CK(cudaMalloc(&g.dev, kBytes));
    CK(cudaStreamCreateWithFlags(&g.stream, cudaStreamNonBlocking));
    CK(cudaHostAlloc(&g.host_back, kBytes, cudaHostAllocPortable));
    CK(cudaMalloc(&g.dev_back, kBytes));
    CK(cudaStreamCreateWithFlags(&g.stream_back, cudaStreamNonBlocking));
    gpus.push_back(g);
  }
  const int reps = 7;
  for (int d = 0; d < count; ++d) {
    std::vector<Gpu> one{gpus[d]};
    std::vector<double> h2d, d2h, h2d_all, d2h_all, h2d_duplex, d2h_duplex;
    for (int r = 0; r < reps; ++r) {
      h2d.push_back(copy_all(one, true)[0]);
      d2h.push_back(copy_all(one, false)[0]);
      h2d_all.push_back(copy_all(gpus, true)[d]);
      d2h_all.push_back(copy_all(gpus, false)[d]);
      const std::pair<double, double> both = copy_duplex(gpus)[d];
      h2d_duplex.push_back(both.first);
      d2h_duplex.push_back(both.second);
    }
    const double gb = kBytes / 1e9;
    std::printf("LINK %d %.2f %.2f %.2f %.2f %.2f %.2f\n", d, gb / median(h2d), gb / median(d2h), gb / median(h2d_all),
                gb / median(d2h_all), gb / median(h2d_duplex), gb / median(d2h_duplex));
  }
  return 0;
}
