// Float <-> IEEE 754 half conversion on the host, for staging arrays in
// half precision (engine/staging/half_staging.h). F16C vector instructions
// where the CPU has them (asked at run time), else a scalar conversion that
// gives the same bits: round to nearest even, overflow to infinity,
// subnormal halves made and read exactly, signed zeros and infinities
// kept, NaN kept NaN (made quiet, the payload's top bits kept). Needs no
// CUDA, so the CPU tests check it.
#pragma once

#include <cstddef>
#include <cstdint>

namespace gpufftw::engine::fp16 {

bool cpu_has_f16c();

// n values; src and dst do not overlap. The vector stores bypass the
// cache (streaming stores, no read of the lines first): these convert
// arrays larger than it, read next by a DMA engine or by the program.
// (Through the cache, into buffers the DMA then reads, is no faster:
// docs/fp16.md, "Host path", measures both.)
void to_half(const float *src, uint16_t *dst, size_t n);
void to_float(const uint16_t *src, float *dst, size_t n);

// The two ways behind them, for the tests; the F16C ones only where
// cpu_has_f16c().
void to_half_scalar(const float *src, uint16_t *dst, size_t n);
void to_float_scalar(const uint16_t *src, float *dst, size_t n);
void to_half_f16c(const float *src, uint16_t *dst, size_t n);
void to_float_f16c(const uint16_t *src, float *dst, size_t n);

}  // namespace gpufftw::engine::fp16
