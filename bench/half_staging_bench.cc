// half_staging_bench: the host side of the FP16 path against the
// single-precision staging, in one process: for a float array of --mib MiB
// (default 256), pinned (cudaMallocHost) and pageable (malloc), the median
// time of moving it to the device and back as floats (HostCopier: DMA
// straight from pinned arrays, staged through the copy threads from
// pageable ones) and as halves converted on the host (engine/staging/half_staging.h: F16C
// on the same threads while the previous piece's DMA runs), the latter for
// several slot sizes (the default marked *). Rates are in the float
// array's bytes per second, so the ratio is the speed-up the FP16 path's
// transfers give. One line per case:
//   RESULT memory direction piece_halves float_ms half_ms float_GBps half_GBps ratio[*]
#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "engine/staging/half_staging.h"
#include "engine/staging/host_half.h"
#include "engine/staging/host_copy.h"

namespace {

using gpufftw::engine::HostCopier;
using gpufftw::engine::fp16::to_device_halves;
using gpufftw::engine::fp16::to_host_floats;

template <class F>
double median_ms(F &&run, int reps) {
  std::vector<double> t;
  run();  // warm-up: buffers, pool threads
  for (int i = 0; i < reps; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    if (!run()) return -1;
    t.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

bool ok(bool r, const std::string &why) {
  if (!r) std::fprintf(stderr, "half_staging_bench: %s\n", why.c_str());
  return r;
}

}  // namespace

int main(int argc, char **argv) {
  size_t mib = 256;
  int reps = 15;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--mib")) mib = std::strtoul(argv[i + 1], nullptr, 10);
    if (!std::strcmp(argv[i], "--reps")) reps = std::atoi(argv[i + 1]);
  }
  const size_t bytes = mib << 20, count = bytes / sizeof(float);
  std::printf("F16C: %s; array %zu MiB of floats\n", gpufftw::engine::fp16::cpu_has_f16c() ? "yes" : "no", mib);
  cudaStream_t stream;
  void *d_float = nullptr, *d_half = nullptr;
  if (cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) != cudaSuccess ||
      cudaMalloc(&d_float, bytes) != cudaSuccess || cudaMalloc(&d_half, bytes / 2) != cudaSuccess) {
    std::fprintf(stderr, "half_staging_bench: no usable GPU\n");
    return 1;
  }
  // The rates the fp16 ways are priced by (dispatch/fp16_ways.h), as the
  // library measures them at its first fp16 plan.
  std::string rate_why;
  if (!gpufftw::engine::gpu_available(&rate_why)) {
    std::fprintf(stderr, "half_staging_bench: %s\n", rate_why.c_str());
    return 1;
  }
  const double device_rate = gpufftw::engine::device_copy_rate(&rate_why);
  if (device_rate <= 0) std::fprintf(stderr, "half_staging_bench: %s\n", rate_why.c_str());
  std::printf("RATES host_convert_GBps %.1f device_copy_GBps %.0f\n", gpufftw::engine::host_half_rate() / 1e9,
              device_rate / 1e9);
  HostCopier copier;
  for (const char *memory : {"pinned", "pageable"}) {
    float *host = nullptr;
    if (!std::strcmp(memory, "pinned")) {
      if (cudaMallocHost(reinterpret_cast<void **>(&host), bytes) != cudaSuccess) return 1;
    } else {
      host = static_cast<float *>(std::malloc(bytes));
    }
    for (size_t i = 0; i < count; ++i) host[i] = static_cast<float>((i * 2654435761u) % 1000) / 1000.0f - 0.5f;
    std::string why;
    auto synced = [&](bool r) { return ok(r && cudaStreamSynchronize(stream) == cudaSuccess, why); };
    const double f_in = median_ms([&] { return synced(copier.to_device(d_float, host, bytes, stream, &why)); }, reps);
    const double f_out = median_ms([&] { return synced(copier.to_host(host, d_float, bytes, stream, &why)); }, reps);
    for (size_t piece : {size_t{1} << 20, size_t{2} << 20, size_t{4} << 20, size_t{8} << 20, size_t{16} << 20}) {
      HostCopier staging(piece * sizeof(uint16_t));
      const double h_in = median_ms([&] {
        return synced(to_device_halves(staging, static_cast<uint16_t *>(d_half), host, count, stream, &why));
      }, reps);
      const double h_out = median_ms([&] {
        return synced(to_host_floats(staging, host, static_cast<const uint16_t *>(d_half), count, stream, &why));
      }, reps);
      auto line = [&](const char *dir, double f, double h) {
        std::printf("RESULT %s %s %zu %.3f %.3f %.1f %.1f %.2f%s\n", memory, dir, piece, f, h, bytes / f / 1e6,
                    bytes / h / 1e6, f / h, piece * sizeof(uint16_t) == HostCopier::kPiece ? "*" : "");
      };
      line("to_device", f_in, h_in);
      line("to_host", f_out, h_out);
    }
    if (!std::strcmp(memory, "pinned"))
      cudaFreeHost(host);
    else
      std::free(host);
  }
  cudaFree(d_float);
  cudaFree(d_half);
  cudaStreamDestroy(stream);
  return 0;
}
