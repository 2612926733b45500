// host_copy_rates: the floor that pageable (malloc) arrays face, measured in
// the run that uses it. gpufftw moves a pageable array through pinned slots
// that its copy threads fill and drain (engine/staging/host_copy.h), each
// GPU of a split with threads of its own; the host's memory, not the links,
// may then bind. For each count k of GPUs (1, 2, 4 and so on up to the
// machine's, and the machine's own count), the first k GPUs' copy threads
// work at once, each GPU's through on_staging_threads as gpufftw's copies
// do: 1 GiB of a pageable array into pinned memory (fill), then back
// (drain). The pinned side is a ring of pieces (HostCopier::kPiece) larger
// than the caches, as the DMA between a slot's fills leaves it out of
// them. Prints per count and GPU, the median of 7 rounds,
//   HOSTCOPY k device fill drain
// (GB/s, GB = 1e9 bytes: that GPU's threads' rate while the first k GPUs'
// copy the same way).
#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "engine/device/context.h"
#include "engine/staging/host_copy.h"
#include "rate_rounds.h"

namespace {

using gpufftw::engine::HostCopier;

constexpr size_t kBytes = size_t{1} << 30;
constexpr size_t kRing = size_t{256} << 20;  // pinned bytes per GPU: past a server's last-level cache

struct Side {
  int device;
  std::vector<char> pageable;  // touched, as a program's array is
  char *pinned = nullptr;
};

// Seconds for each GPU's threads to move kBytes one way, all at once; -1
// for a GPU whose device could not be opened.
std::vector<double> copy_all(std::vector<Side> &sides, bool fill) {
  std::vector<double> secs(sides.size(), -1);
  std::vector<std::thread> threads;
  for (size_t k = 0; k < sides.size(); ++k)
    threads.emplace_back([&, k] {
      Side &s = sides[k];
      gpufftw::engine::DeviceScope on(s.device);
      if (!on.ok()) return (void)std::fprintf(stderr, "host_copy_rates: device %d: %s\n", s.device, on.why().c_str());
      const auto t0 = std::chrono::steady_clock::now();
      for (size_t off = 0; off < kBytes; off += HostCopier::kPiece) {
        char *host = s.pageable.data() + off, *slot = s.pinned + off % kRing;
        const size_t len = std::min(HostCopier::kPiece, kBytes - off);
        gpufftw::engine::on_staging_threads([&](unsigned part, unsigned parts) {
          const size_t chunk = (len + parts - 1) / parts, begin = std::min(len, part * chunk),
                       n = std::min(len, begin + chunk) - begin;
          if (fill)
            std::memcpy(slot + begin, host + begin, n);
          else
            std::memcpy(host + begin, slot + begin, n);
        });
      }
      secs[k] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    });
  for (std::thread &t : threads) t.join();
  return secs;
}

}  // namespace

int main() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    std::printf("host_copy_rates: no GPU\n");
    return 1;
  }
  std::vector<Side> sides(count);
  for (int d = 0; d < count; ++d) {
    sides[d].device = d;
    sides[d].pageable.assign(kBytes, 1);
    const cudaError_t e = cudaHostAlloc(reinterpret_cast<void **>(&sides[d].pinned), kRing, cudaHostAllocPortable);
    if (e != cudaSuccess) {
      std::printf("host_copy_rates: cudaHostAlloc: %s\n", cudaGetErrorString(e));
      return 1;
    }
    std::memset(sides[d].pinned, 1, kRing);
  }
  const int reps = 7;
  const double gb = kBytes / 1e9;
  for (int k : gpu_counts(count)) {
    std::vector<Side> first;
    for (int d = 0; d < k; ++d) first.push_back(std::move(sides[d]));
    copy_all(first, true);  // warm-up: each GPU's copy threads start at their first copy
    std::vector<std::vector<double>> fill(k), drain(k);
    for (int r = 0; r < reps; ++r) {
      const std::vector<double> in = copy_all(first, true), out = copy_all(first, false);
      for (int d = 0; d < k; ++d) {
        if (in[d] < 0 || out[d] < 0) return 1;
        fill[d].push_back(in[d]), drain[d].push_back(out[d]);
      }
    }
    for (int d = 0; d < k; ++d) {
      std::printf("HOSTCOPY %d %d %.2f %.2f\n", k, d, gb / median_of(fill[d]), gb / median_of(drain[d]));
      sides[d] = std::move(first[d]);
    }
  }
  return 0;
}
