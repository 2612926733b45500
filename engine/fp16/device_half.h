// Float <-> half conversion of arrays already on the device (device and
// managed arrays of an FP16 plan), round to nearest even as on the host.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace gpufftw::engine::fp16 {

// `count` values, queued on `stream`; the launch's error.
cudaError_t device_to_half(const float *src, uint16_t *dst, long long count, cudaStream_t stream);
cudaError_t device_to_float(const uint16_t *src, float *dst, long long count, cudaStream_t stream);

}  // namespace gpufftw::engine::fp16
