// Float <-> half conversion of arrays already on the device (device and
// managed arrays of an FP16 plan), round to nearest even as on the host.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace gpufftw::engine::fp16 {

// `count` values, queued on `stream`; the launch's error.
cudaError_t device_to_half(const float *src, uint16_t *dst, long long count, cudaStream_t stream);
cudaError_t device_to_float(const uint16_t *src, float *dst, long long count, cudaStream_t stream);
// `rows` rows of `width` floats, `spitch` floats apart, as halves in rows
// `dpitch` halves apart: a block of columns, converted where it lies.
cudaError_t device_rows_to_half(const float *src, long long spitch, uint16_t *dst, long long dpitch, long long width,
                                long long rows, cudaStream_t stream);

// `rows` rows of `n` real halves, each `pitch` halves after the last (FFTW's
// padded rows in place), as complex halves (__half2: re, im) with zero
// imaginary parts, rows of `n` back to back at `dst`: r2c's input for the
// c2c kernels.
cudaError_t real_to_complex_half(const uint16_t *src, long long pitch, long long n, long long rows, uint32_t *dst,
                                 cudaStream_t stream);

}  // namespace gpufftw::engine::fp16
