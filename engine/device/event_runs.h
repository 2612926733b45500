// Timing work on the GPU: its runs read by the GPU's events under
// gpufftw's one reading rule (core/readings.h), for every engine timing of
// GPU work (our kernels' tuning, the rates the planner prices by).
#pragma once

#include <string>

#include "core/readings.h"
#include "engine/device/context.h"

namespace gpufftw::engine {

// Seconds of one run of `f` (queued on `stream`, true where it was), read
// by events around it on `stream` under `rule`; false with `why` where a
// run or a CUDA call failed.
template <class F>
bool time_runs(cudaStream_t stream, const ReadingRule &rule, F &&f, double *seconds, std::string *why) {
  cudaEvent_t ev[2];
  GPUFFTW_CK(cudaEventCreate(&ev[0]), why);
  if (!check(cudaEventCreate(&ev[1]), "cudaEventCreate", why)) {
    cudaEventDestroy(ev[0]);
    return false;
  }
  *seconds = read_runs(
      [&] {
        float ms = 0;
        const bool ok = check(cudaEventRecord(ev[0], stream), "cudaEventRecord", why) && f() &&
                        check(cudaEventRecord(ev[1], stream), "cudaEventRecord", why) &&
                        check(cudaEventSynchronize(ev[1]), "cudaEventSynchronize", why) &&
                        check(cudaEventElapsedTime(&ms, ev[0], ev[1]), "cudaEventElapsedTime", why);
        return ok ? 1e-3 * ms : -1.0;
      },
      rule);
  cudaEventDestroy(ev[0]);
  cudaEventDestroy(ev[1]);
  return *seconds >= 0;
}

}  // namespace gpufftw::engine
