// The host's float <-> half conversion (engine/staging/host_half.h), scalar
// and F16C, against an oracle built from the definition of binary16: every
// finite half decoded exactly, the nearest one found by search, ties to the
// even significand. Also GPUFFTW_PRECISION's parsing. No GPU needed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "core/config.h"
#include "engine/staging/host_half.h"

namespace gpufftw::engine::fp16 {
namespace {

float from_bits(uint32_t x) {
  float f;
  std::memcpy(&f, &x, sizeof f);
  return f;
}
uint32_t bits(float f) {
  uint32_t x;
  std::memcpy(&x, &f, sizeof x);
  return x;
}

// binary16's value by its definition, in double (exact).
double half_value(uint16_t h) {
  const int e = (h >> 10) & 31, m = h & 1023;
  const double v = e == 0 ? std::ldexp(m, -24) : std::ldexp(1024 + m, e - 25);
  return h & 0x8000 ? -v : v;
}

// The nearest half to a float, ties to the even one; 65520 and up is
// infinity. NaN is checked apart.
uint16_t oracle_half(float f) {
  static const std::vector<double> positive = [] {
    std::vector<double> v;
    for (uint16_t h = 0; h < 0x7c00; ++h) v.push_back(half_value(h));
    return v;
  }();
  const uint16_t sign = std::signbit(f) ? 0x8000 : 0;
  const double a = std::fabs(static_cast<double>(f));
  if (a >= 65520.0) return sign | 0x7c00;
  const size_t hi = static_cast<size_t>(std::lower_bound(positive.begin(), positive.end(), a) - positive.begin());
  if (hi == 0) return sign;
  const size_t lo = hi - 1;
  if (hi == positive.size()) return static_cast<uint16_t>(sign | lo);
  const double dl = a - positive[lo], dh = positive[hi] - a;
  const size_t pick = dl < dh ? lo : dh < dl ? hi : (lo % 2 == 0 ? lo : hi);
  return static_cast<uint16_t>(sign | pick);
}

// Inputs that probe each case: zeros, infinities, NaNs of both kinds with
// payloads, float subnormals, the overflow edge, the subnormal halves'
// range and its rounding edge, exact ties, and random bit patterns.
std::vector<float> probes() {
  std::vector<float> v = {0.0f, -0.0f, INFINITY, -INFINITY, 65504.0f, -65504.0f, 65519.99f, 65520.0f, -65520.0f,
                          65536.0f, 1e30f, std::ldexp(1.0f, -14), std::ldexp(1.0f, -24), std::ldexp(1.0f, -25),
                          std::ldexp(1.5f, -25), std::ldexp(1.0f, -26), std::ldexp(3.0f, -25), 1e-45f, -1e-40f,
                          1.0f, -1.0f, 0.1f, 1.0f / 3};
  for (uint32_t nan : {0x7fc00000u, 0xffc00001u, 0x7f800001u, 0x7fa5a5a5u, 0xff812345u, 0x7fffe000u})
    v.push_back(from_bits(nan));
  for (uint16_t h = 0; h < 0x7c00; h += 37) {  // ties just between two halves, and both neighbours
    const double mid = (half_value(h) + half_value(static_cast<uint16_t>(h + 1))) / 2;
    v.push_back(static_cast<float>(mid));
    v.push_back(std::nextafter(static_cast<float>(mid), 0.0f));
    v.push_back(std::nextafter(static_cast<float>(mid), INFINITY));
    v.push_back(-static_cast<float>(mid));
  }
  std::mt19937 rng(12345);
  for (int i = 0; i < 200000; ++i) v.push_back(from_bits(rng()));
  std::uniform_real_distribution<float> u(-0.5f, 0.5f);
  for (int i = 0; i < 20000; ++i) v.push_back(u(rng) * std::ldexp(1.0f, static_cast<int>(rng() % 40) - 30));
  return v;
}

void expect_half(float f, uint16_t got, const char *way) {
  if (std::isnan(f)) {
    EXPECT_TRUE((got & 0x7c00) == 0x7c00 && (got & 0x3ff)) << way << ": NaN " << std::hex << bits(f) << " -> " << got;
    EXPECT_EQ(got & 0x8000, (bits(f) >> 16) & 0x8000) << way << ": NaN's sign";
    return;
  }
  EXPECT_EQ(got, oracle_half(f)) << way << ": " << std::hexfloat << f;
}

using Convert = void (*)(const float *, uint16_t *, size_t);
using Back = void (*)(const uint16_t *, float *, size_t);

void check_to_half(Convert convert, const char *way) {
  const std::vector<float> in = probes();
  std::vector<uint16_t> out(in.size());
  convert(in.data(), out.data(), in.size());
  for (size_t i = 0; i < in.size() && !testing::Test::HasFailure(); ++i) expect_half(in[i], out[i], way);
}

void check_to_float(Back convert, const char *way) {
  std::vector<uint16_t> all(65536);
  for (size_t h = 0; h < all.size(); ++h) all[h] = static_cast<uint16_t>(h);
  std::vector<float> out(all.size());
  convert(all.data(), out.data(), all.size());
  for (size_t h = 0; h < all.size(); ++h) {
    const int e = (h >> 10) & 31;
    if (e == 31 && (h & 1023)) {
      ASSERT_TRUE(std::isnan(out[h])) << way << " " << h;
      ASSERT_EQ(std::signbit(out[h]), (h & 0x8000) != 0) << way << " " << h;
    } else if (e == 31) {
      ASSERT_EQ(out[h], h & 0x8000 ? -INFINITY : INFINITY) << way << " " << h;
    } else {
      ASSERT_EQ(static_cast<double>(out[h]), half_value(static_cast<uint16_t>(h))) << way << " " << h;
      ASSERT_EQ(std::signbit(out[h]), (h & 0x8000) != 0) << way << " " << h;
    }
  }
}

TEST(HostHalf, ScalarToHalfIsTheNearestTiesToEven) { check_to_half(to_half_scalar, "scalar"); }
TEST(HostHalf, ScalarToFloatIsExact) { check_to_float(to_float_scalar, "scalar"); }

TEST(HostHalf, F16cToHalfIsTheNearestTiesToEven) {
  if (!cpu_has_f16c()) GTEST_SKIP() << "this CPU has no F16C: only the scalar conversion runs here";
  check_to_half(to_half_f16c, "F16C");
}
TEST(HostHalf, F16cToFloatIsExact) {
  if (!cpu_has_f16c()) GTEST_SKIP() << "this CPU has no F16C: only the scalar conversion runs here";
  check_to_float(to_float_f16c, "F16C");
}

// Scalar and F16C give the same bits, NaN payloads included, on a sweep of
// every 251st float bit pattern and on every half.
TEST(HostHalf, ScalarAndF16cAgreeBitForBit) {
  if (!cpu_has_f16c()) GTEST_SKIP() << "this CPU has no F16C: only the scalar conversion runs here";
  std::vector<float> in;
  for (uint64_t x = 0; x <= 0xffffffffu; x += 251) in.push_back(from_bits(static_cast<uint32_t>(x)));
  std::vector<uint16_t> a(in.size()), b(in.size());
  to_half_scalar(in.data(), a.data(), in.size());
  to_half_f16c(in.data(), b.data(), in.size());
  for (size_t i = 0; i < in.size(); ++i) ASSERT_EQ(a[i], b[i]) << std::hex << bits(in[i]);
  std::vector<uint16_t> all(65536);
  for (size_t h = 0; h < all.size(); ++h) all[h] = static_cast<uint16_t>(h);
  std::vector<float> fa(all.size()), fb(all.size());
  to_float_scalar(all.data(), fa.data(), all.size());
  to_float_f16c(all.data(), fb.data(), all.size());
  for (size_t h = 0; h < all.size(); ++h) ASSERT_EQ(bits(fa[h]), bits(fb[h])) << h;
}

// Every length from 0 to 70 and some odd larger ones, at every alignment
// of source and destination within a vector: the vector path's ends and
// its aligned (streaming) and unaligned stores; nothing outside the range
// is written.
TEST(HostHalf, AnyLengthAndAlignment) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-0.5f, 0.5f);
  std::vector<size_t> lengths;
  for (size_t n = 0; n <= 70; ++n) lengths.push_back(n);
  for (size_t n : {127, 129, 1000, 1001, 4099}) lengths.push_back(n);
  for (size_t n : lengths) {
    for (size_t at = 0; at < 9; ++at) {
      std::vector<float> src(n + 16), back(n + 32, -7.0f);
      for (float &f : src) f = u(rng);
      std::vector<uint16_t> h(n + 32, 0xabcd), ref(n);
      to_half_scalar(src.data() + at, ref.data(), n);
      to_half(src.data() + at, h.data() + at, n);
      for (size_t i = 0; i < h.size(); ++i) {
        if (i >= at && i < at + n)
          ASSERT_EQ(h[i], ref[i - at]) << "n " << n << " at " << at;
        else
          ASSERT_EQ(h[i], 0xabcd) << "written outside: n " << n << " at " << at << ", index " << i;
      }
      to_float(h.data() + at, back.data() + at, n);
      for (size_t i = 0; i < back.size(); ++i) {
        if (i >= at && i < at + n)
          ASSERT_EQ(static_cast<double>(back[i]), half_value(h[i])) << "n " << n << " at " << at;
        else
          ASSERT_EQ(back[i], -7.0f) << "written outside: n " << n << " at " << at << ", index " << i;
      }
    }
  }
}

}  // namespace
}  // namespace gpufftw::engine::fp16

namespace gpufftw {
namespace {

TEST(PrecisionSwitch, EnvironmentIsParsed) {
  unsetenv("GPUFFTW_PRECISION");
  EXPECT_EQ(read_config().precision, GPUFFTW_PRECISION_FP32);
  setenv("GPUFFTW_PRECISION", "fp16", 1);
  EXPECT_EQ(read_config().precision, GPUFFTW_PRECISION_FP16);
  setenv("GPUFFTW_PRECISION", "fp32", 1);
  EXPECT_EQ(read_config().precision, GPUFFTW_PRECISION_FP32);
  setenv("GPUFFTW_PRECISION", "", 1);
  EXPECT_EQ(read_config().precision, GPUFFTW_PRECISION_FP32);
  for (const char *bad : {"half", "FP16", "fp8", "16"}) {
    setenv("GPUFFTW_PRECISION", bad, 1);
    testing::internal::CaptureStderr();
    EXPECT_EQ(read_config().precision, GPUFFTW_PRECISION_FP32) << bad;
    const std::string said = testing::internal::GetCapturedStderr();
    EXPECT_NE(said.find(std::string("GPUFFTW_PRECISION=") + bad + " is not one of fp32, fp16; using the default (fp32)"), std::string::npos)
        << said;
  }
  unsetenv("GPUFFTW_PRECISION");
}

}  // namespace
}  // namespace gpufftw
