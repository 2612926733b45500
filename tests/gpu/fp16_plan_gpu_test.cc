// GPUFFTW_PRECISION=fp16 through the FFTW API on the GPU: fftwf_
// c2c plans run on halves, and their relative L2 error against a
// long-double direct DFT stays within 2e-3, on malloc'd, fftwf_malloc'd
// and device arrays, forward and backward, in and out of place, 1-D and
// 2-D, over several staging pieces; sizes our kernels do not take go to
// cuFFT's FP16 (powers of two) or to cuFFT's single precision on halves;
// pinned host arrays, and device arrays of those other sizes, run in
// single precision; layouts that are not dense batches stay in single
// precision. Every test skips, saying so, without a usable GPU.
#include <cuda_runtime_api.h>
#include <fftw3.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "../hazards/direct_dft.h"
#include "gpufftw/gpufftw.h"
#include "print_at_end.h"

namespace {

using gpufftw_test::cld;

constexpr double kHalfBound = 2e-3;  // the FP16 path's bound for n <= 4096 (docs/fp16.md)

double worst = 0;
const auto *kPrintWorst =
    print_at_end([] { std::printf("largest relative L2 error of fp16 plans on the GPU: %.3g\n", worst); });

class Fp16 : public testing::Test {
 protected:
  void SetUp() override {
    if (!gpufftw_gpu_available()) GTEST_SKIP() << "no usable GPU here: GPU tests skipped";
    saved_mode_ = gpufftw_get_mode();
    saved_ = gpufftw_get_precision();
    gpufftw_set_mode(GPUFFTW_MODE_GPU);
    gpufftw_set_precision(GPUFFTW_PRECISION_FP16);
  }
  void TearDown() override {
    if (!gpufftw_gpu_available()) return;
    gpufftw_set_mode(saved_mode_);
    gpufftw_set_precision(saved_);
  }
  gpufftw_mode saved_mode_ = GPUFFTW_MODE_AUTO;
  gpufftw_precision saved_ = GPUFFTW_PRECISION_FP32;
};

enum class Mem { Malloc, FftwMalloc, Device };

// The DFT of one transform of `dims` (row-major) by direct DFTs along each
// axis in long double, the roots of unity tabulated.
std::vector<cld> reference(std::vector<cld> x, const std::vector<int> &dims, int sign) {
  size_t inner = 1;
  for (size_t d = dims.size(); d-- > 0;) {
    const size_t n = static_cast<size_t>(dims[d]), outer = x.size() / (n * inner);
    std::vector<cld> w(n);
    for (size_t k = 0; k < n; ++k) w[k] = std::polar(1.0L, sign * 2 * std::acos(-1.0L) * k / n);
    auto dft = [&](const std::vector<cld> &in) {
      std::vector<cld> y(n);
      for (size_t k = 0; k < n; ++k)
        for (size_t j = 0; j < n; ++j) y[k] += in[j] * w[(j * k) % n];
      return y;
    };
    for (size_t o = 0; o < outer; ++o)
      for (size_t i = 0; i < inner; ++i) {
        std::vector<cld> line(n);
        for (size_t k = 0; k < n; ++k) line[k] = x[(o * n + k) * inner + i];
        line = dft(line);
        for (size_t k = 0; k < n; ++k) x[(o * n + k) * inner + i] = line[k];
      }
    inner *= n;
  }
  return x;
}

struct Case {
  std::vector<int> dims;
  int batch;
  Mem mem;
  int sign;
  bool in_place;
};

// Plans and runs the case; checks transforms first, middle and last against
// the reference within `bound`; returns the plan's why.
std::string run_case(const Case &c, double bound, const char *why_has) {
  size_t per = 1;
  for (int d : c.dims) per *= static_cast<size_t>(d);
  const size_t count = per * static_cast<size_t>(c.batch), bytes = count * sizeof(fftwf_complex);
  std::vector<float> host(2 * count);
  std::vector<cld> x = gpufftw_test::random_fill(host.data(), count);
  void *in = nullptr, *out = nullptr;
  switch (c.mem) {
    case Mem::Malloc:
      in = std::malloc(bytes), out = c.in_place ? in : std::malloc(bytes);
      break;
    case Mem::FftwMalloc:
      in = fftwf_malloc(bytes), out = c.in_place ? in : fftwf_malloc(bytes);
      break;
    case Mem::Device:
      EXPECT_EQ(cudaMalloc(&in, bytes), cudaSuccess);
      if (c.in_place)
        out = in;
      else
        EXPECT_EQ(cudaMalloc(&out, bytes), cudaSuccess);
      break;
  }
  if (!in || !out) {
    ADD_FAILURE() << "allocation";
    return "";
  }
  const int dist = static_cast<int>(per);
  fftwf_plan p = fftwf_plan_many_dft(static_cast<int>(c.dims.size()), c.dims.data(), c.batch,
                                     static_cast<fftwf_complex *>(in), nullptr, 1, dist,
                                     static_cast<fftwf_complex *>(out), nullptr, 1, dist, c.sign, FFTW_ESTIMATE);
  EXPECT_NE(p, nullptr);
  if (!p) return "";
  const std::string why = gpufftw_plan_why(p);
  EXPECT_STREQ(gpufftw_plan_where(p), "gpu");
  EXPECT_NE(why.find(why_has), std::string::npos) << why;
  if (c.mem == Mem::Device)
    EXPECT_EQ(cudaMemcpy(in, host.data(), bytes, cudaMemcpyHostToDevice), cudaSuccess);
  else
    std::memcpy(in, host.data(), bytes);
  fftwf_execute(p);
  std::vector<float> result(2 * count);
  if (c.mem == Mem::Device)
    EXPECT_EQ(cudaMemcpy(result.data(), out, bytes, cudaMemcpyDeviceToHost), cudaSuccess);
  else
    std::memcpy(result.data(), out, bytes);
  for (int t : {0, c.batch / 2, c.batch - 1}) {
    const std::vector<cld> xt(x.begin() + static_cast<long>(t * per), x.begin() + static_cast<long>((t + 1) * per));
    const double err = gpufftw_test::rel_error(result.data() + 2 * t * per, reference(xt, c.dims, c.sign));
    if (bound >= 1e-3 && err > worst) worst = err;
    EXPECT_LT(err, bound) << "transform " << t << "; " << why;
  }
  if (!c.in_place) {  // the input is read, not changed
    std::vector<float> after(2 * count);
    if (c.mem == Mem::Device)
      EXPECT_EQ(cudaMemcpy(after.data(), in, bytes, cudaMemcpyDeviceToHost), cudaSuccess);
    else
      std::memcpy(after.data(), in, bytes);
    EXPECT_EQ(std::memcmp(after.data(), host.data(), bytes), 0) << "out of place kept its input";
  }
  fftwf_destroy_plan(p);
  for (void *a : {in, out}) {
    if (a == out && c.in_place) break;
    if (c.mem == Mem::Device)
      cudaFree(a);
    else if (c.mem == Mem::FftwMalloc)
      fftwf_free(a);
    else
      std::free(a);
  }
  return why;
}

const char *kOurs = "computed in half precision: fp16 tensor cores";
const double kSingleBound = 5 * 1.19e-7 * std::sqrt(12.0);  // single precision's, n <= 4096

TEST_F(Fp16, MallocArrays1d) { run_case({{1024}, 64, Mem::Malloc, FFTW_FORWARD, false}, kHalfBound, kOurs); }
// fftwf_malloc hands out pageable memory under 1 MiB (GPUFFTW_PINNED_MIN):
// halves; pinned from there up: single precision, by design.
TEST_F(Fp16, FftwMallocArrays1d) { run_case({{4096}, 12, Mem::FftwMalloc, FFTW_BACKWARD, false}, kHalfBound, kOurs); }
TEST_F(Fp16, PinnedHostArraysRunInSinglePrecision) {
  run_case({{4096}, 48, Mem::FftwMalloc, FFTW_FORWARD, false}, kSingleBound, "pinned host arrays");
}
TEST_F(Fp16, DeviceArrays1d) { run_case({{256}, 300, Mem::Device, FFTW_FORWARD, false}, kHalfBound, kOurs); }
TEST_F(Fp16, DeviceArraysInPlace) { run_case({{2048}, 33, Mem::Device, FFTW_BACKWARD, true}, kHalfBound, kOurs); }
// 4.5 M points: 9 M halves, several staging pieces each way.
TEST_F(Fp16, SeveralStagingPiecesInPlace) {
  run_case({{4096}, 1100, Mem::Malloc, FFTW_FORWARD, true}, kHalfBound, kOurs);
  run_case({{512}, 9000, Mem::Malloc, FFTW_BACKWARD, true}, kHalfBound, kOurs);
}
TEST_F(Fp16, TwoDimensional) {
  run_case({{256, 512}, 3, Mem::Malloc, FFTW_FORWARD, false}, kHalfBound, kOurs);
  run_case({{256, 256}, 2, Mem::Device, FFTW_BACKWARD, false}, kHalfBound, kOurs);
}
// A power of two our kernels do not take: cuFFT's FP16.
TEST_F(Fp16, CufftFp16TakesOtherPowersOfTwo) {
  run_case({{128}, 500, Mem::Malloc, FFTW_FORWARD, false}, kHalfBound, "computed in half precision: cuFFT fp16");
  run_case({{8192}, 8, Mem::Device, FFTW_BACKWARD, true}, 3e-3, "computed in half precision: cuFFT fp16");
}
// Neither takes 1000: single precision on halves from host arrays (only
// the rounding to half and back: about 4e-4), plain single precision on
// device arrays.
TEST_F(Fp16, OtherSizesCrossTheBusAsHalves) {
  run_case({{1000}, 40, Mem::Malloc, FFTW_FORWARD, false}, 1e-3, "computed in half precision: cuFFT fp32 on halves");
  run_case({{1000}, 40, Mem::Device, FFTW_BACKWARD, false}, kSingleBound, "and device arrays in single precision");
}
// A layout that is not a dense batch stays in single precision too.
TEST_F(Fp16, StridedLayoutsStayInSinglePrecision) {
  const int n = 1024, batch = 4;
  fftwf_complex *a = fftwf_alloc_complex(static_cast<size_t>(n) * batch);
  fftwf_plan p = fftwf_plan_many_dft(1, &n, batch, a, nullptr, batch, 1, a, nullptr, batch, 1, FFTW_FORWARD,
                                     FFTW_ESTIMATE);
  ASSERT_NE(p, nullptr);
  EXPECT_NE(std::string(gpufftw_plan_why(p)).find("not applied, single precision"), std::string::npos)
      << gpufftw_plan_why(p);
  fftwf_destroy_plan(p);
  fftwf_free(a);
}

// Run by ctest with GPUFFTW_COMPARE=1: the comparison mode reports an fp16
// plan as such, with half's tolerance, and not over it.
TEST_F(Fp16, CompareModeHoldsItToHalfsTolerance) {
  const char *on = std::getenv("GPUFFTW_COMPARE");
  if (!on || std::string(on) != "1") GTEST_SKIP() << "run by ctest's fp16 compare entry (GPUFFTW_COMPARE=1)";
  run_case({{4096}, 16, Mem::Malloc, FFTW_FORWARD, false}, kHalfBound, kOurs);
  FILE *f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  gpufftw_compare_table(f);
  std::rewind(f);
  std::string table;
  char buf[512];
  while (std::fgets(buf, sizeof buf, f)) table += buf;
  std::fclose(f);
  const size_t at = table.find("c2c f32 n=[4096] howmany=[16]");
  ASSERT_NE(at, std::string::npos) << table;
  const std::string line = table.substr(table.rfind('\n', at) + 1, table.find('\n', at) - table.rfind('\n', at) - 1);
  EXPECT_NE(line.find("[fp16]"), std::string::npos) << line;
  EXPECT_NE(line.find("0.00203"), std::string::npos) << "half's tolerance at N = 4096: " << line;
  EXPECT_EQ(line.find("OVER"), std::string::npos) << line;
}

}  // namespace
