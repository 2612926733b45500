#include "engine/staging/host_half.h"

#include <cpuid.h>

#include <cstring>

namespace gpufftw::engine::fp16 {
namespace {

uint16_t half_of(float f) {
  uint32_t x;
  std::memcpy(&x, &f, sizeof x);
  const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
  const uint32_t a = x & 0x7fffffffu;
  if (a >= 0x7f800000u)  // infinity, NaN
    return sign | 0x7c00u | (a > 0x7f800000u ? 0x200u | ((a >> 13) & 0x3ffu) : 0u);
  if (a >= 0x477ff000u) return sign | 0x7c00u;  // 65520 and up: past 65504, ties to even's infinity
  uint32_t h, rest, tie;
  if (a >= 0x38800000u) {  // 2^-14 and up: a normal half
    h = (a >> 13) - (112u << 10);  // exponent rebiased from 127 to 15
    rest = a & 0x1fffu, tie = 0x1000u;
  } else {  // a subnormal half, in units of 2^-24
    const uint32_t e = a >> 23;
    if (e < 102) return sign;  // under 2^-25: rounds to zero
    const uint32_t m = (a & 0x7fffffu) | 0x800000u, shift = 126 - e;
    h = m >> shift, rest = m & ((1u << shift) - 1), tie = 1u << (shift - 1);
  }
  if (rest > tie || (rest == tie && (h & 1u))) ++h;  // a carry moves into the exponent, as it should
  return static_cast<uint16_t>(sign | h);
}

float float_of(uint16_t h) {
  const uint32_t sign = (h & 0x8000u) << 16, e = (h >> 10) & 0x1fu;
  uint32_t m = h & 0x3ffu, x;
  if (e == 31)
    x = sign | 0x7f800000u | (m ? 0x400000u | (m << 13) : 0u);
  else if (e)
    x = sign | ((e + 112) << 23) | (m << 13);
  else if (!m)
    x = sign;
  else {  // subnormal: m * 2^-24, normalised
    uint32_t s = 0;
    for (; !(m & 0x400u); ++s) m <<= 1;
    x = sign | ((113 - s) << 23) | ((m & 0x3ffu) << 13);
  }
  float f;
  std::memcpy(&f, &x, sizeof f);
  return f;
}

bool detect_f16c() {
  unsigned a, b, c, d;
  if (!__get_cpuid(1, &a, &b, &c, &d)) return false;
  // F16C and AVX (the 256-bit forms), and the OS saving the YMM registers.
  if (!(c & bit_F16C) || !(c & bit_AVX) || !(c & bit_OSXSAVE)) return false;
  unsigned lo, hi;
  __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return (lo & 6u) == 6u;
}

}  // namespace

bool cpu_has_f16c() {
  static const bool has = detect_f16c();
  return has;
}

void to_half_scalar(const float *src, uint16_t *dst, size_t n) {
  for (size_t i = 0; i < n; ++i) dst[i] = half_of(src[i]);
}

void to_float_scalar(const uint16_t *src, float *dst, size_t n) {
  for (size_t i = 0; i < n; ++i) dst[i] = float_of(src[i]);
}

void to_half(const float *src, uint16_t *dst, size_t n) {
  if (cpu_has_f16c())
    to_half_f16c(src, dst, n);
  else
    to_half_scalar(src, dst, n);
}

void to_float(const uint16_t *src, float *dst, size_t n) {
  if (cpu_has_f16c())
    to_float_f16c(src, dst, n);
  else
    to_float_scalar(src, dst, n);
}

}  // namespace gpufftw::engine::fp16
