// host_copy_rates: the floor that pageable (malloc) arrays face, measured in
// the run that uses it. gpufftw moves a pageable array through pinned slots
// that its copy threads fill and drain (engine/staging/host_copy.h), each
// GPU of a split with threads of its own; the host's memory, not the links,
// may then bind. For each count k of GPUs (1, 2, 4 and so on up to the
// machine's, and the machine's own count), the first k GPUs' copy threads
// work at once, each GPU's through on_staging_threads as gpufftw's copies
// do: 1 GiB of a pageable array into pinned memory (fill), then back
// (drain). The pinned side is a ring of the copier's own slots
// (HostCopier::kSlots pieces of HostCopier::kPiece): the few pinned bytes
// gpufftw's copies go through stay in the host's caches between fills, so
// a ring past the caches reads a rate below what the staging reaches and
// is no floor of it. Prints per count and GPU, the median of 7 rounds,
//   HOSTCOPY k device fill drain
// (GB/s, GB = 1e9 bytes: that GPU's threads' rate while the first k GPUs'
// copy the same way). Then the same 1 GiB through gpufftw's whole staging
// path (HostCopier: the threads fill a slot while the DMA of the last one
// runs), into each GPU's memory and back, the first k GPUs at once, with
// slots of 8, 4 and 2 MiB:
//   STAGED k device piece_MiB in out
// (GB/s). Where the k GPUs' malloc rows of bench/multi_gpu_run.sh sit above
// the HOSTCOPY floor, these tell whether the staging path itself falls
// short of it with k GPUs (the DMA's own traffic through host memory, a
// slot's size) or what the jobs do around it.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "engine/device/context.h"
#include "engine/staging/host_copy.h"
#include "rate_rounds.h"

namespace {

using gpufftw::engine::HostCopier;

constexpr size_t kBytes = size_t{1} << 30;
constexpr size_t kRing = HostCopier::kSlots * HostCopier::kPiece;  // pinned bytes per GPU, as a copier holds

struct Side {
  int device;
  std::vector<char> pageable;  // touched, as a program's array is
  char *pinned = nullptr;
};

// Seconds for each GPU's threads to move kBytes one way, all at once; -1
// for a GPU whose device could not be opened.
std::vector<double> copy_all(std::vector<Side> &sides, bool fill) {
  return all_at_once<double>(sides.size(), [&](size_t k) {
    Side &s = sides[k];
    gpufftw::engine::DeviceScope on(s.device);
    if (!on.ok()) return std::fprintf(stderr, "host_copy_rates: device %d: %s\n", s.device, on.why().c_str()), -1.0;
    const auto t0 = std::chrono::steady_clock::now();
    for (size_t off = 0; off < kBytes; off += HostCopier::kPiece) {
      char *host = s.pageable.data() + off, *slot = s.pinned + off % kRing;
      const size_t len = std::min(HostCopier::kPiece, kBytes - off);
      gpufftw::engine::on_staging_threads(gpufftw::engine::StagingWork::Copy, [&](unsigned part, unsigned parts) {
        const size_t chunk = (len + parts - 1) / parts, begin = std::min(len, part * chunk),
                     n = std::min(len, begin + chunk) - begin;
        if (fill)
          std::memcpy(slot + begin, host + begin, n);
        else
          std::memcpy(host + begin, slot + begin, n);
      });
    }
    return seconds_since(t0);
  });
}

// One GPU's end of the staging: its pageable array, a device buffer of
// kBytes and a copier with slots of the size measured.
struct Stager {
  int device;
  char *pageable;
  void *buffer = nullptr;
  cudaStream_t stream = nullptr;
  std::unique_ptr<HostCopier> copier;
};

// Seconds for each GPU to stage kBytes of its pageable array into its
// device buffer (to_device) or back (to_host), all at once; -1 for a GPU
// whose copy failed.
std::vector<double> stage_all(std::vector<Stager> &stagers, bool in) {
  return all_at_once<double>(stagers.size(), [&](size_t k) {
    Stager &s = stagers[k];
    gpufftw::engine::DeviceScope on(s.device);
    std::string why;
    const auto t0 = std::chrono::steady_clock::now();
    const bool ok = in ? s.copier->to_device(s.buffer, s.pageable, kBytes, s.stream, &why) &&
                             cudaStreamSynchronize(s.stream) == cudaSuccess
                       : s.copier->to_host(s.pageable, s.buffer, kBytes, s.stream, &why);
    if (!ok) return std::fprintf(stderr, "host_copy_rates: staging on device %d: %s\n", s.device, why.c_str()), -1.0;
    return seconds_since(t0);
  });
}

// STAGED lines for the first k GPUs with slots of `piece` bytes; false
// where a device could not be used.
bool staged_rates(std::vector<Side> &sides, int k, size_t piece, int reps) {
  std::vector<Stager> stagers(k);
  bool ok = true;
  for (int d = 0; d < k; ++d) {
    Stager &s = stagers[d];
    s.device = sides[d].device;
    s.pageable = sides[d].pageable.data();
    gpufftw::engine::DeviceScope on(s.device);
    s.copier = std::make_unique<HostCopier>(piece);
    if (!on.ok() || cudaMalloc(&s.buffer, kBytes) != cudaSuccess || cudaStreamCreate(&s.stream) != cudaSuccess) {
      std::fprintf(stderr, "host_copy_rates: device %d: no buffer or stream for the staging\n", s.device);
      ok = false;
    }
  }
  if (ok) {
    stage_all(stagers, true);  // warm-up: the slots are made at the first copy
    std::vector<std::vector<double>> in(k), out(k);
    for (int r = 0; r < reps && ok; ++r) {
      const std::vector<double> i = stage_all(stagers, true), o = stage_all(stagers, false);
      for (int d = 0; d < k; ++d) {
        ok = ok && i[d] > 0 && o[d] > 0;
        in[d].push_back(i[d]), out[d].push_back(o[d]);
      }
    }
    for (int d = 0; d < k && ok; ++d)
      std::printf("STAGED %d %d %zu %.2f %.2f\n", k, d, piece >> 20, kBytes / 1e9 / median_of(in[d]),
                  kBytes / 1e9 / median_of(out[d]));
  }
  for (Stager &s : stagers) {
    gpufftw::engine::DeviceScope on(s.device);
    s.copier.reset();
    if (s.buffer) cudaFree(s.buffer);
    if (s.stream) cudaStreamDestroy(s.stream);
  }
  return ok;
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
  for (int k : gpu_counts(count))
    for (size_t piece : {HostCopier::kPiece, HostCopier::kPiece / 2, HostCopier::kPiece / 4})
      if (!staged_rates(sides, k, piece, reps)) return 1;
  return 0;
}
