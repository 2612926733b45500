// Host float arrays to and from device arrays of halves, converted on the
// host while staged, so that PCIe carries half the bytes: the
// pieces of HostCopier's staging (engine/staging/host_copy.h), which the staging
// threads fill with halves (F16C, host_half.h) while the DMA of the
// previous piece runs, and drain the same way on the way back. Pinned and
// pageable arrays alike pass through its slots: the conversion must
// happen on the host for the bus to carry halves.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "engine/staging/host_copy.h"

namespace gpufftw::engine::fp16 {

// `count` floats of the host array `src` as halves at the device array
// `dst`, queued on `stream`; `src` is read before this returns.
bool to_device_halves(HostCopier &copier, uint16_t *dst, const float *src, size_t count, cudaStream_t stream,
                      std::string *why);
// `count` halves of the device array `src` as floats into the host array
// `dst`, after the stream's earlier work; written before this returns.
bool to_host_floats(HostCopier &copier, float *dst, const uint16_t *src, size_t count, cudaStream_t stream,
                    std::string *why);
// `rows` rows of `width` halves, `spitch` halves apart in the device array
// `src`, as floats into rows `pitch` floats apart in the host array
// `dst` (a block of columns of a row-major array), after the stream's
// earlier work; written before this returns.
bool rows_to_host_floats(HostCopier &copier, float *dst, size_t pitch, const uint16_t *src, size_t spitch,
                         size_t width, size_t rows, cudaStream_t stream, std::string *why);

// `n` values converted on the staging threads (host_half.h's conversions),
// each thread's share in whole cache lines of halves so that no two
// threads write one line.
void to_half_on_threads(const float *src, uint16_t *dst, size_t n);
void to_float_on_threads(const uint16_t *src, float *dst, size_t n);

}  // namespace gpufftw::engine::fp16
