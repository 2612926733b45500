// link_rates: the host links' floor of one GPU and of several, measured in
// the run that uses it. For each count k of GPUs (1, 2, 4 and so on up to the
// machine's, and the machine's own count), the first k GPUs copy pinned
// memory at once, each over its own link and all through the one host:
// host-to-device, then device-to-host, then both ways at once (what a
// pipeline of batches does: one chunk in while another goes out). Prints
// per count and GPU, the median of 7 rounds,
//   LINKS k device h2d d2h h2d_duplex d2h_duplex
// (GB/s, GB = 1e9 bytes: that GPU's rate while the first k GPUs copy the
// same way; duplex: each way's rate while they copy both ways).
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <utility>
#include <vector>

#include "rate_rounds.h"

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
  return all_at_once<double>(gpus.size(), [&](size_t k) {
    Gpu &g = gpus[k];
    CK(cudaSetDevice(g.device));
    const auto t0 = std::chrono::steady_clock::now();
    if (to_device)
      CK(cudaMemcpyAsync(g.dev, g.host, kBytes, cudaMemcpyHostToDevice, g.stream));
    else
      CK(cudaMemcpyAsync(g.host, g.dev, kBytes, cudaMemcpyDeviceToHost, g.stream));
    CK(cudaStreamSynchronize(g.stream));
    return seconds_since(t0);
  });
}

// Seconds of each direction's copy of kBytes, {h2d, d2h} per GPU, with every
// GPU copying both ways at once; CUDA events time each direction on its own
// stream, so the one that ends first is not charged the other's time.
std::vector<std::pair<double, double>> copy_duplex(std::vector<Gpu> &gpus) {
  return all_at_once<std::pair<double, double>>(gpus.size(), [&](size_t k) {
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
    for (cudaEvent_t event : ev) CK(cudaEventDestroy(event));
    return std::make_pair(h2d_ms / 1e3, d2h_ms / 1e3);
  });
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
  const double gb = kBytes / 1e9;
  for (int k : gpu_counts(count)) {
    std::vector<Gpu> first(gpus.begin(), gpus.begin() + k);
    std::vector<std::vector<double>> h2d(k), d2h(k), h2d_duplex(k), d2h_duplex(k);
    for (int r = 0; r < reps; ++r) {
      const std::vector<double> in = copy_all(first, true), out = copy_all(first, false);
      const std::vector<std::pair<double, double>> both = copy_duplex(first);
      for (int d = 0; d < k; ++d) {
        h2d[d].push_back(in[d]);
        d2h[d].push_back(out[d]);
        h2d_duplex[d].push_back(both[d].first);
        d2h_duplex[d].push_back(both[d].second);
      }
    }
    for (int d = 0; d < k; ++d)
      std::printf("LINKS %d %d %.2f %.2f %.2f %.2f\n", k, d, gb / median_of(h2d[d]), gb / median_of(d2h[d]),
                  gb / median_of(h2d_duplex[d]), gb / median_of(d2h_duplex[d]));
  }
  return 0;
}
