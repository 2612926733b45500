// GPUFFTW_PRECISION=fp16 through the FFTW API on the GPU: fftwf_ c2c, r2c
// and c2r plans, their relative L2 error against a long-double direct DFT
// within 2e-3 where they compute in half precision (single precision's
// bound where the choice kept f32), on malloc'd, fftwf_malloc'd (pageable
// and pinned) and device arrays, forward and backward, in and out of place
// (r2c and c2r in FFTW's padded rows), 1-D to 3-D, over several staging
// pieces. ctest runs the binary once per GPUFFTW_FP16_WAY: each way's
// entry checks every case that way takes is computed by it, the auto one
// that the choice names its winner (and, under FFTW_MEASURE, its
// readings). r2c of sizes cuFFT's FP16 does not take run in single
// precision on halves or in f32; layouts that are not dense batches stay
// in single precision. Every test skips, saying
// so, without a usable GPU.
#include <cuda_runtime_api.h>
#include <fftw3.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
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
enum class Kind { C2C, R2C, C2R };

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
  int sign;  // c2c's; r2c and c2r take theirs
  bool in_place;
  Kind kind = Kind::C2C;
  unsigned flags = FFTW_ESTIMATE;
};

// GPUFFTW_FP16_WAY as ctest's entry sets it: each way's entry holds every
// case that way takes to it, the others to the choice.
std::string way() {
  const char *w = std::getenv("GPUFFTW_FP16_WAY");
  return w ? w : "auto";
}

// What the plan's why must name for the case under the entry's way; ""
// where the choice decides.
std::string expected_path(const Case &c) {
  bool powers = true, ours = c.kind != Kind::C2R && c.dims.size() <= 3;
  for (int d : c.dims) {
    powers &= (d & (d - 1)) == 0;
    ours &= (d & (d - 1)) == 0 && d >= 256 && d <= 4096;
  }
  const std::string w = way();
  if (w == "ours" && ours) return "computed in half precision: fp16 tensor cores";
  if (w == "cufft-fp16" && powers) return "computed in half precision: cuFFT fp16";
  if (w == "fp32-on-halves") return "computed in half precision: cuFFT fp32 on halves";
  if (w == "fp32") return "not applied, single precision";
  return "";
}

// One side's values (floats) for all transforms, as the case lays it out.
struct Sizes {
  size_t per = 1;        // points of one transform
  size_t rows = 1;       // all but the last axis
  size_t m = 0;          // complex numbers along the last axis (r2c, c2r)
  size_t real_row = 0;   // reals a real side's row holds (n, or 2m in place)
  size_t in_values = 0, out_values = 0;
};

Sizes sizes(const Case &c) {
  Sizes s;
  for (int d : c.dims) s.per *= static_cast<size_t>(d);
  const size_t last = static_cast<size_t>(c.dims.back()), batch = static_cast<size_t>(c.batch);
  s.rows = s.per / last;
  if (c.kind == Kind::C2C) {
    s.in_values = s.out_values = 2 * s.per * batch;
    return s;
  }
  s.m = last / 2 + 1;
  s.real_row = c.in_place ? 2 * s.m : last;
  const size_t real = s.rows * s.real_row * batch, complex = 2 * s.rows * s.m * batch;
  s.in_values = c.kind == Kind::R2C ? real : complex;
  s.out_values = c.kind == Kind::R2C ? complex : real;
  if (c.in_place) s.in_values = s.out_values = std::max(s.in_values, s.out_values);
  return s;
}

fftwf_plan plan_case(const Case &c, const Sizes &s, void *in, void *out) {
  const int rank = static_cast<int>(c.dims.size());
  std::vector<int> real_embed = c.dims, complex_embed = c.dims;
  real_embed.back() = static_cast<int>(s.real_row);
  complex_embed.back() = static_cast<int>(s.m);
  const int real_dist = static_cast<int>(s.rows * s.real_row), complex_dist = static_cast<int>(s.rows * s.m);
  switch (c.kind) {
    case Kind::C2C:
      return fftwf_plan_many_dft(rank, c.dims.data(), c.batch, static_cast<fftwf_complex *>(in), nullptr, 1,
                                 static_cast<int>(s.per), static_cast<fftwf_complex *>(out), nullptr, 1,
                                 static_cast<int>(s.per), c.sign, c.flags);
    case Kind::R2C:
      return fftwf_plan_many_dft_r2c(rank, c.dims.data(), c.batch, static_cast<float *>(in), real_embed.data(), 1,
                                     real_dist, static_cast<fftwf_complex *>(out), complex_embed.data(), 1,
                                     complex_dist, c.flags);
    case Kind::C2R:
      return fftwf_plan_many_dft_c2r(rank, c.dims.data(), c.batch, static_cast<fftwf_complex *>(in),
                                     complex_embed.data(), 1, complex_dist, static_cast<float *>(out),
                                     real_embed.data(), 1, real_dist, c.flags);
  }
  return nullptr;
}

// A real signal for transform t: uniform in [-0.5, 0.5), from a fixed seed.
std::vector<cld> real_signal(size_t per, int t) {
  std::mt19937_64 rng(1234 + static_cast<unsigned>(t));
  std::uniform_real_distribution<double> u(-0.5, 0.5);
  std::vector<cld> x(per);
  for (cld &v : x) v = cld(static_cast<float>(u(rng)), 0);
  return x;
}

// The first m numbers of each row of a full spectrum.
std::vector<cld> half_spectrum(const std::vector<cld> &full, size_t rows, size_t last, size_t m) {
  std::vector<cld> h(rows * m);
  for (size_t r = 0; r < rows; ++r)
    for (size_t k = 0; k < m; ++k) h[r * m + k] = full[r * last + k];
  return h;
}

// Plans and runs the case; checks transforms first, middle and last
// against the reference: within `half_bound` where the why says half
// precision, within single precision's bound where it says single; returns
// the plan's why.
std::string run_case(const Case &c, double half_bound = kHalfBound) {
  const Sizes s = sizes(c);
  const size_t in_bytes = s.in_values * sizeof(float), out_bytes = s.out_values * sizeof(float);
  const size_t last = static_cast<size_t>(c.dims.back());
  // The input as the program writes it, and each checked transform's reference.
  std::vector<float> host(s.in_values, 0.0f);
  std::vector<std::vector<cld>> ref(static_cast<size_t>(c.batch));
  const std::vector<int> checked = {0, c.batch / 2, c.batch - 1};
  if (c.kind == Kind::C2C) {
    std::vector<cld> x = gpufftw_test::random_fill(host.data(), s.per * static_cast<size_t>(c.batch));
    for (int t : checked)
      ref[t] = reference(std::vector<cld>(x.begin() + static_cast<long>(t * s.per),
                                          x.begin() + static_cast<long>((t + 1) * s.per)),
                         c.dims, c.sign);
  } else {
    for (int t = 0; t < c.batch; ++t) {
      const std::vector<cld> x = real_signal(s.per, t);
      const bool wanted = std::find(checked.begin(), checked.end(), t) != checked.end();
      if (c.kind == Kind::R2C) {
        for (size_t r = 0; r < s.rows; ++r)
          for (size_t k = 0; k < last; ++k)
            host[(t * s.rows + r) * s.real_row + k] = static_cast<float>(x[r * last + k].real());
        if (wanted) ref[t] = half_spectrum(reference(x, c.dims, FFTW_FORWARD), s.rows, last, s.m);
      } else {
        // The half spectrum of a real signal in; the signal times N out.
        const std::vector<cld> h = half_spectrum(reference(x, c.dims, FFTW_FORWARD), s.rows, last, s.m);
        for (size_t i = 0; i < h.size(); ++i) {
          host[2 * (t * h.size() + i)] = static_cast<float>(h[i].real());
          host[2 * (t * h.size() + i) + 1] = static_cast<float>(h[i].imag());
        }
        if (wanted) {
          ref[t] = x;
          for (cld &v : ref[t]) v *= static_cast<long double>(s.per);
        }
      }
    }
  }
  void *in = nullptr, *out = nullptr;
  switch (c.mem) {
    case Mem::Malloc:
      in = std::malloc(in_bytes), out = c.in_place ? in : std::malloc(out_bytes);
      break;
    case Mem::FftwMalloc:
      in = fftwf_malloc(in_bytes), out = c.in_place ? in : fftwf_malloc(out_bytes);
      break;
    case Mem::Device:
      EXPECT_EQ(cudaMalloc(&in, in_bytes), cudaSuccess);
      if (c.in_place)
        out = in;
      else
        EXPECT_EQ(cudaMalloc(&out, out_bytes), cudaSuccess);
      break;
  }
  if (!in || !out) {
    ADD_FAILURE() << "allocation";
    return "";
  }
  fftwf_plan p = plan_case(c, s, in, out);
  EXPECT_NE(p, nullptr);
  if (!p) return "";
  const std::string why = gpufftw_plan_why(p);
  EXPECT_STREQ(gpufftw_plan_where(p), "gpu");
  EXPECT_NE(why.find("; fp16: "), std::string::npos) << why;
  const std::string path = expected_path(c);
  if (!path.empty()) {
    EXPECT_NE(why.find(path), std::string::npos) << why;
  }
  const bool half = why.find("computed in half precision") != std::string::npos;
  const double bound = half ? half_bound : 5 * 1.19e-7 * std::sqrt(std::log2(static_cast<double>(s.per)));
  if (c.mem == Mem::Device)
    EXPECT_EQ(cudaMemcpy(in, host.data(), in_bytes, cudaMemcpyHostToDevice), cudaSuccess);
  else
    std::memcpy(in, host.data(), in_bytes);
  fftwf_execute(p);
  std::vector<float> result(s.out_values);
  if (c.mem == Mem::Device)
    EXPECT_EQ(cudaMemcpy(result.data(), out, out_bytes, cudaMemcpyDeviceToHost), cudaSuccess);
  else
    std::memcpy(result.data(), out, out_bytes);
  for (int t : checked) {
    double err;
    if (c.kind == Kind::C2R) {  // the rows' n reals of transform t
      long double num = 0, den = 0;
      for (size_t r = 0; r < s.rows; ++r)
        for (size_t k = 0; k < last; ++k) {
          const long double want = ref[t][r * last + k].real();
          const long double got = result[(t * s.rows + r) * s.real_row + k];
          num += (got - want) * (got - want);
          den += want * want;
        }
      err = static_cast<double>(std::sqrt(num / den));
    } else {
      const size_t per_out = c.kind == Kind::C2C ? s.per : s.rows * s.m;
      err = gpufftw_test::rel_error(result.data() + 2 * t * per_out, ref[t]);
    }
    if (half && err > worst) worst = err;
    EXPECT_LT(err, bound) << "transform " << t << "; " << why;
  }
  if (!c.in_place && c.kind != Kind::C2R) {  // the input is read, not changed (FFTW's c2r may destroy its own)
    std::vector<float> after(s.in_values);
    if (c.mem == Mem::Device)
      EXPECT_EQ(cudaMemcpy(after.data(), in, in_bytes, cudaMemcpyDeviceToHost), cudaSuccess);
    else
      std::memcpy(after.data(), in, in_bytes);
    EXPECT_EQ(std::memcmp(after.data(), host.data(), in_bytes), 0) << "out of place kept its input";
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

TEST_F(Fp16, MallocArrays1d) { run_case({{1024}, 64, Mem::Malloc, FFTW_FORWARD, false}); }
// fftwf_malloc hands out pageable memory under 1 MiB (GPUFFTW_PINNED_MIN),
// pinned memory from there up: both cross the bus as halves in the ways in
// half (the host converts them into the staging slots).
TEST_F(Fp16, FftwMallocArrays1d) { run_case({{4096}, 12, Mem::FftwMalloc, FFTW_BACKWARD, false}); }
TEST_F(Fp16, PinnedHostArrays) {
  run_case({{4096}, 48, Mem::FftwMalloc, FFTW_FORWARD, false});
  run_case({{4096}, 300, Mem::FftwMalloc, FFTW_BACKWARD, true});
}
TEST_F(Fp16, DeviceArrays1d) { run_case({{256}, 300, Mem::Device, FFTW_FORWARD, false}); }
TEST_F(Fp16, DeviceArraysInPlace) { run_case({{2048}, 33, Mem::Device, FFTW_BACKWARD, true}); }
// 4.5 M points: 9 M halves, several staging pieces each way.
TEST_F(Fp16, SeveralStagingPiecesInPlace) {
  run_case({{4096}, 1100, Mem::Malloc, FFTW_FORWARD, true});
  run_case({{512}, 9000, Mem::Malloc, FFTW_BACKWARD, true});
}
TEST_F(Fp16, TwoDimensional) {
  run_case({{256, 512}, 3, Mem::Malloc, FFTW_FORWARD, false});
  run_case({{256, 256}, 2, Mem::Device, FFTW_BACKWARD, false});
}
// Powers of two our kernels do not take (cuFFT's FP16 does).
TEST_F(Fp16, OtherPowersOfTwo) {
  run_case({{128}, 500, Mem::Malloc, FFTW_FORWARD, false});
  run_case({{8192}, 8, Mem::Device, FFTW_BACKWARD, true}, 3e-3);
}
// Neither our kernels nor cuFFT's FP16 take 1000: single precision on
// halves (only the rounding to half and back: about 4e-4) or f32.
TEST_F(Fp16, OtherSizes) {
  run_case({{1000}, 40, Mem::Malloc, FFTW_FORWARD, false}, 1e-3);
  run_case({{1000}, 40, Mem::Device, FFTW_BACKWARD, false}, 1e-3);
}

// r2c and c2r in half: cuFFT's FP16, every axis a power of two, and r2c
// on our kernels where every axis is 256 to 4096. The c2r outputs are the
// signal times N, so N stays well under half's largest value (65504) for
// signals of order 1.
TEST_F(Fp16, RealToComplex1d) {
  run_case({{1024}, 64, Mem::Malloc, 0, false, Kind::R2C});
  run_case({{4096}, 9, Mem::Device, 0, false, Kind::R2C});
}
TEST_F(Fp16, ComplexToReal1d) {
  run_case({{1024}, 64, Mem::Malloc, 0, false, Kind::C2R});
  run_case({{2048}, 9, Mem::Device, 0, false, Kind::C2R});
}
TEST_F(Fp16, RealTransforms2d) {
  run_case({{256, 512}, 3, Mem::Malloc, 0, false, Kind::R2C});
  run_case({{128, 128}, 2, Mem::Device, 0, false, Kind::C2R});
  run_case({{128, 256}, 2, Mem::FftwMalloc, 0, false, Kind::C2R});
}
TEST_F(Fp16, RealTransforms3d) {
  run_case({{64, 64, 128}, 2, Mem::FftwMalloc, 0, false, Kind::R2C});
  run_case({{32, 32, 64}, 3, Mem::Malloc, 0, false, Kind::R2C});
  run_case({{16, 32, 32}, 2, Mem::Device, 0, false, Kind::C2R});
}
// In place: FFTW's padded rows of 2 (n/2 + 1) reals.
TEST_F(Fp16, RealTransformsInPlace) {
  run_case({{256, 256}, 2, Mem::Malloc, 0, true, Kind::R2C});
  run_case({{512}, 7, Mem::Device, 0, true, Kind::R2C});
  run_case({{64, 128}, 3, Mem::Malloc, 0, true, Kind::C2R});
}
// Our r2c (the c2c of the reals) keeps the kernels' accuracy: within half
// the bound on 2-D, out of place and in FFTW's padded rows.
TEST_F(Fp16, OurRealToComplexKeepsTheKernelsAccuracy) {
  if (way() != "ours") GTEST_SKIP() << "run by the GPUFFTW_FP16_WAY=ours entry";
  run_case({{256, 512}, 3, Mem::Malloc, 0, false, Kind::R2C}, kHalfBound / 2);
  run_case({{512, 256}, 2, Mem::FftwMalloc, 0, true, Kind::R2C}, kHalfBound / 2);
  run_case({{1024}, 9, Mem::Device, 0, true, Kind::R2C}, kHalfBound / 2);
}
// Sizes cuFFT's FP16 does not take: single precision on halves (only the
// rounding to half and back) or f32, and the why says why cuFFT's FP16
// did not take them; in FFTW's padded rows too.
TEST_F(Fp16, RealTransformsOfOtherSizes) {
  const std::string why = run_case({{1000}, 8, Mem::Malloc, 0, false, Kind::R2C}, 1e-3);
  run_case({{100, 120}, 3, Mem::Malloc, 0, true, Kind::C2R}, 1e-3);
  run_case({{16, 30, 40}, 2, Mem::Device, 0, false, Kind::C2R}, 1e-3);
  run_case({{48, 1000}, 2, Mem::FftwMalloc, 0, true, Kind::R2C}, 1e-3);
  if (way() == "fp32" || way() == "fp32-on-halves") return;  // forced: its own why
  EXPECT_NE(why.find("cuFFT's FP16 takes powers of two only"), std::string::npos) << why;
}
// FFTW_MEASURE times the ways (or takes the pick an earlier run stored).
TEST_F(Fp16, MeasureTimesTheWays) {
  if (way() != "auto") GTEST_SKIP() << "GPUFFTW_FP16_WAY=" << way() << " forces the way";
  const std::string why = run_case({{1024}, 256, Mem::Malloc, FFTW_FORWARD, false, Kind::C2C, FFTW_MEASURE});
  EXPECT_NE(why.find(", measured"), std::string::npos) << why;
  const std::string real = run_case({{512, 512}, 2, Mem::Malloc, 0, false, Kind::R2C, FFTW_MEASURE});
  EXPECT_NE(real.find(", measured"), std::string::npos) << real;
}
// A layout that is not a dense batch stays in single precision.
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
  run_case({{4096}, 16, Mem::Malloc, FFTW_FORWARD, false});
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
