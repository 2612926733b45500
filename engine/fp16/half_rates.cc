// The rates dispatch prices half precision by (engine.h): measured once
// per process, at the first fp16 plan, in a few milliseconds.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <vector>

#include "engine/device/context.h"
#include "engine/device/rates.h"
#include "engine/staging/half_staging.h"

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
  return time_device_copy(rate, why);
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
