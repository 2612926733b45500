// The F16C conversions, the one file built with -mf16c (which implies AVX):
// called only where cpu_has_f16c(). It includes nothing with inline
// functions, so that no AVX copy of a function other files share can win
// at link time and run on a CPU without AVX.
#include <immintrin.h>

#include "engine/staging/host_half.h"

namespace gpufftw::engine::fp16 {
namespace {

constexpr int kRound = _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC;

// Up to 8 values through a full vector, for the ends of a range.
void few_to_half(const float *src, uint16_t *dst, size_t n) {
  alignas(32) float f[8] = {};
  alignas(16) uint16_t h[8];
  for (size_t i = 0; i < n; ++i) f[i] = src[i];
  _mm_store_si128(reinterpret_cast<__m128i *>(h), _mm256_cvtps_ph(_mm256_load_ps(f), kRound));
  for (size_t i = 0; i < n; ++i) dst[i] = h[i];
}

void few_to_float(const uint16_t *src, float *dst, size_t n) {
  alignas(16) uint16_t h[8] = {};
  alignas(32) float f[8];
  for (size_t i = 0; i < n; ++i) h[i] = src[i];
  _mm256_store_ps(f, _mm256_cvtph_ps(_mm_load_si128(reinterpret_cast<const __m128i *>(h))));
  for (size_t i = 0; i < n; ++i) dst[i] = f[i];
}

// Values before `p` reaches an `align`-byte boundary, at most n.
size_t head(const void *p, size_t elem, size_t align, size_t n) {
  const size_t mis = reinterpret_cast<uintptr_t>(p) % align;
  if (mis == 0 || mis % elem) return 0;  // misaligned for the element itself: never aligns
  const size_t k = (align - mis) / elem;
  return k < n ? k : n;
}

}  // namespace

void to_half_f16c(const float *src, uint16_t *dst, size_t n) {
  size_t i = head(dst, sizeof *dst, 16, n);
  few_to_half(src, dst, i);
  const bool aligned = reinterpret_cast<uintptr_t>(dst + i) % 16 == 0;
  for (; i + 8 <= n; i += 8) {
    const __m128i h = _mm256_cvtps_ph(_mm256_loadu_ps(src + i), kRound);
    if (aligned)
      _mm_stream_si128(reinterpret_cast<__m128i *>(dst + i), h);
    else
      _mm_storeu_si128(reinterpret_cast<__m128i *>(dst + i), h);
  }
  few_to_half(src + i, dst + i, n - i);
  if (aligned) _mm_sfence();
}

void to_float_f16c(const uint16_t *src, float *dst, size_t n) {
  size_t i = head(dst, sizeof *dst, 32, n);
  few_to_float(src, dst, i);
  const bool aligned = reinterpret_cast<uintptr_t>(dst + i) % 32 == 0;
  for (; i + 8 <= n; i += 8) {
    const __m256 f = _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i *>(src + i)));
    if (aligned)
      _mm256_stream_ps(dst + i, f);
    else
      _mm256_storeu_ps(dst + i, f);
  }
  few_to_float(src + i, dst + i, n - i);
  if (aligned) _mm_sfence();
}

}  // namespace gpufftw::engine::fp16
