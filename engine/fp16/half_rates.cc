// The rates dispatch prices half precision by (engine.h): measured once
// per process, at the first fp16 plan, in a few milliseconds.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <vector>

#include "engine/device/context.h"
#include "engine/fp16/half_staging.h"

namespace gpufftw::engine {
namespace {

// 32 MiB of floats: past the staging threads' start-up, within a few
// milliseconds each way.
constexpr size_t kFloats = size_t{8} << 20;
constexpr int kReadings = 3;

double measure_host() {
  std::vector<float> floats(kFloats, 1.0f);
  std::vector<uint16_t> halves(kFloats, 0);
  double best = HUGE_VAL;
  for (int i = 0; i < kReadings; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    fp16::to_half_on_threads(floats.data(), halves.data(), kFloats);
    fp16::to_float_on_threads(halves.data(), floats.data(), kFloats);
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  // Each float converted once each way: the bytes of floats, twice.
  return 2.0 * kFloats * sizeof(float) / best;
}

bool measure_device(double *rate, std::string *why) {
  if (!gpu_available(why)) return false;
  GPUFFTW_CK(cudaSetDevice(device()), why);
  constexpr size_t kBytes = size_t{64} << 20;
  void *a = nullptr, *b = nullptr;
  GPUFFTW_CK(cudaMalloc(&a, kBytes), why);
  std::unique_ptr<void, cudaError_t (*)(void *)> free_a(a, cudaFree);
  GPUFFTW_CK(cudaMalloc(&b, kBytes), why);
  std::unique_ptr<void, cudaError_t (*)(void *)> free_b(b, cudaFree);
  cudaEvent_t ev[2];
  GPUFFTW_CK(cudaEventCreate(&ev[0]), why);
  std::unique_ptr<CUevent_st, cudaError_t (*)(cudaEvent_t)> free_0(ev[0], cudaEventDestroy);
  GPUFFTW_CK(cudaEventCreate(&ev[1]), why);
  std::unique_ptr<CUevent_st, cudaError_t (*)(cudaEvent_t)> free_1(ev[1], cudaEventDestroy);
  GPUFFTW_CK(cudaMemcpy(b, a, kBytes, cudaMemcpyDeviceToDevice), why);  // warm
  float best = HUGE_VALF;
  for (int i = 0; i < kReadings; ++i) {
    float ms = 0;
    GPUFFTW_CK(cudaEventRecord(ev[0]), why);
    GPUFFTW_CK(cudaMemcpyAsync(b, a, kBytes, cudaMemcpyDeviceToDevice), why);
    GPUFFTW_CK(cudaEventRecord(ev[1]), why);
    GPUFFTW_CK(cudaEventSynchronize(ev[1]), why);
    GPUFFTW_CK(cudaEventElapsedTime(&ms, ev[0], ev[1]), why);
    best = std::min(best, ms);
  }
  *rate = 2.0 * kBytes / (1e-3 * best);
  return true;
}

}  // namespace

double host_half_rate() {
  static const double rate = measure_host();
  return rate;
}

double device_copy_rate(std::string *why) {
  static std::string failed;
  static const double rate = [] {
    double r = 0;
    return measure_device(&r, &failed) ? r : 0.0;
  }();
  if (rate == 0 && why) *why = failed;
  return rate;
}

}  // namespace gpufftw::engine
