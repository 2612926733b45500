// GPU execution: placement, device and managed arrays, faults, accuracy.
// Every test skips, saying so, where there is no usable GPU.
#include <cuda_runtime_api.h>
#include <fftw3.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ostream>
#include <random>
#include <string>
#include <thread>
#include <tuple>
#include <functional>
#include <vector>

#include "../hazards/direct_dft.h"
#include "../sweep/fftw_traits.h"
#include "gpufftw/gpufftw.h"
#include "print_at_end.h"

namespace {

using gpufftw_test::cld;

class Gpu : public testing::Test {
 protected:
  void SetUp() override {
    if (!gpufftw_gpu_available()) GTEST_SKIP() << "no usable GPU here: GPU tests skipped";
    saved_ = gpufftw_get_mode();
    gpufftw_set_mode(GPUFFTW_MODE_GPU);
  }
  void TearDown() override {
    if (gpufftw_gpu_available()) gpufftw_set_mode(saved_);
    unsetenv("GPUFFTW_FAULT");
  }
  gpufftw_mode saved_ = GPUFFTW_MODE_AUTO;
};

// The largest relative error seen per precision, printed at the end so the
// GPU run records it.
double worst[2] = {0, 0};
const auto *kPrintWorst =
    print_at_end([] { std::printf("largest relative L2 error on the GPU: f32 %.3g, f64 %.3g\n", worst[0], worst[1]); });

template <class T>
double tolerance(size_t n) {
  // c * eps * sqrt(log2 N), c = 5 (the sweep's constant).
  const double eps = sizeof(T) == 4 ? 1.19e-7 : 2.22e-16;
  return 5 * eps * std::sqrt(std::log2(static_cast<double>(n)));
}

template <class T>
void record(double err) {
  double &w = worst[sizeof(T) == 4 ? 0 : 1];
  if (err > w) w = err;
}

// 1-D c2c of size n, batch b, in the given memory; checked against the
// long-double direct DFT on transform 0 and b-1.
template <class T, class Plan, class Complex>
void c2c_batch(int n, int b, cudaMemoryType where, Plan (*plan_many)(int, const int *, int, Complex *, const int *, int,
                                                                   int, Complex *, const int *, int, int, int, unsigned),
               void (*execute)(Plan), void (*destroy)(Plan)) {
  const size_t count = static_cast<size_t>(n) * b, bytes = count * 2 * sizeof(T);
  std::vector<T> host(2 * count);
  std::vector<cld> x = gpufftw_test::random_fill(host.data(), count);
  T *in = nullptr, *out = nullptr;
  if (where == cudaMemoryTypeDevice) {
    ASSERT_EQ(cudaMalloc(reinterpret_cast<void **>(&in), bytes), cudaSuccess);
    ASSERT_EQ(cudaMalloc(reinterpret_cast<void **>(&out), bytes), cudaSuccess);
  } else {
    ASSERT_EQ(cudaMallocManaged(reinterpret_cast<void **>(&in), bytes), cudaSuccess);
    ASSERT_EQ(cudaMallocManaged(reinterpret_cast<void **>(&out), bytes), cudaSuccess);
  }
  ASSERT_EQ(cudaMemcpy(in, host.data(), bytes, cudaMemcpyHostToDevice), cudaSuccess);
  Plan p = plan_many(1, &n, b, reinterpret_cast<Complex *>(in), nullptr, 1, n, reinterpret_cast<Complex *>(out),
                     nullptr, 1, n, FFTW_FORWARD, FFTW_ESTIMATE);
  ASSERT_NE(p, nullptr);
  EXPECT_STREQ(gpufftw_plan_where(p), "gpu");
  execute(p);
  std::vector<T> result(2 * count);
  ASSERT_EQ(cudaMemcpy(result.data(), out, bytes, cudaMemcpyDeviceToHost), cudaSuccess);
  for (int t : {0, b - 1}) {
    std::vector<cld> xt(x.begin() + static_cast<long>(t) * n, x.begin() + static_cast<long>(t + 1) * n);
    double err = gpufftw_test::rel_error(result.data() + 2L * t * n, gpufftw_test::direct_dft(xt, FFTW_FORWARD));
    record<T>(err);
    EXPECT_LT(err, tolerance<T>(n)) << "transform " << t;
  }
  std::vector<T> in_after(2 * count);
  ASSERT_EQ(cudaMemcpy(in_after.data(), in, bytes, cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_EQ(std::memcmp(in_after.data(), host.data(), bytes), 0) << "out-of-place c2c kept its input";
  destroy(p);
  cudaFree(in);
  cudaFree(out);
}

// Arrays that share memory without being one array: the GPU plan is NULL
// exactly where the real FFTW's is (a c2r of 3 points whose output starts
// one double into its input, which the real FFTW does not plan; the planner
// fuzzer found gpufftw planning it in GPU mode).
TEST_F(Gpu, OverlappingArraysPlanAsTheRealFftwDoes) {
  std::vector<double> buf(16, 0.0);
  auto *in = reinterpret_cast<fftw_complex *>(buf.data());
  double *out = buf.data() + 1;
  gpufftw_set_mode(GPUFFTW_MODE_CPU);
  fftw_plan real = fftw_plan_dft_c2r_1d(3, in, out, FFTW_ESTIMATE);
  gpufftw_set_mode(GPUFFTW_MODE_GPU);
  fftw_plan gpu = fftw_plan_dft_c2r_1d(3, in, out, FFTW_ESTIMATE);
  EXPECT_EQ(real, nullptr);
  EXPECT_EQ(gpu == nullptr, real == nullptr);
  if (real) fftw_destroy_plan(real);
  if (gpu) fftw_destroy_plan(gpu);
}

// FFTW's restricting planner flags can leave its planner with no
// algorithm (a c2r preserving its input without buffers): the GPU's plan
// is NULL where the real FFTW's is.
TEST_F(Gpu, RestrictingFlagsPlanAsTheRealFftwDoes) {
  std::vector<fftw_complex> in(12);
  std::vector<double> out(22);
  const unsigned flags = FFTW_ESTIMATE | FFTW_PRESERVE_INPUT | FFTW_NO_BUFFERING;
  gpufftw_set_mode(GPUFFTW_MODE_CPU);
  fftw_plan real = fftw_plan_dft_c2r_1d(22, in.data(), out.data(), flags);
  gpufftw_set_mode(GPUFFTW_MODE_GPU);
  fftw_plan gpu = fftw_plan_dft_c2r_1d(22, in.data(), out.data(), flags);
  EXPECT_EQ(real, nullptr);
  EXPECT_EQ(gpu == nullptr, real == nullptr);
  fftw_plan plain = fftw_plan_dft_c2r_1d(22, in.data(), out.data(), FFTW_ESTIMATE | FFTW_PRESERVE_INPUT);
  ASSERT_NE(plain, nullptr);
  EXPECT_STREQ(gpufftw_plan_where(plain), "gpu");
  for (fftw_plan p : {real, gpu, plain})
    if (p) fftw_destroy_plan(p);
}

TEST_F(Gpu, DeviceArraysF32) {
  c2c_batch<float>(1024, 33, cudaMemoryTypeDevice, fftwf_plan_many_dft, fftwf_execute, fftwf_destroy_plan);
}
TEST_F(Gpu, DeviceArraysF64) {
  c2c_batch<double>(1000, 17, cudaMemoryTypeDevice, fftw_plan_many_dft, fftw_execute, fftw_destroy_plan);
}
TEST_F(Gpu, ManagedArraysF32) {
  c2c_batch<float>(4096, 5, cudaMemoryTypeManaged, fftwf_plan_many_dft, fftwf_execute, fftwf_destroy_plan);
}
TEST_F(Gpu, ManagedArraysF64) {
  c2c_batch<double>(2187, 3, cudaMemoryTypeManaged, fftw_plan_many_dft, fftw_execute, fftw_destroy_plan);
}

// A batch of planes on device arrays, large enough to be chunked for host
// arrays, runs on one GPU as one plan of the whole batch (no copies for
// chunks to hide): the path says so (the ctest entry
// gpu_device_arrays_one_gpu keeps the plan on one GPU of a set, whose
// split would take it), and every plane is right. Plane t holds an impulse
// at (t, 2t), whose transform is exp(-2 pi i (k t + 2 l t) / n).
TEST_F(Gpu, DeviceArraysRunAChunkedBatchOfPlanesWhole) {
  const int n = 512, planes = 16, dims[2] = {n, n};
  const size_t per = static_cast<size_t>(n) * n, count = per * planes, bytes = count * sizeof(fftwf_complex);
  std::vector<fftwf_complex> host(count);
  for (int t = 0; t < planes; ++t) host[t * per + static_cast<size_t>(t) * n + 2 * t][0] = 1;
  fftwf_complex *in = nullptr, *out = nullptr;
  ASSERT_EQ(cudaMalloc(reinterpret_cast<void **>(&in), bytes), cudaSuccess);
  ASSERT_EQ(cudaMalloc(reinterpret_cast<void **>(&out), bytes), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(in, host.data(), bytes, cudaMemcpyHostToDevice), cudaSuccess);
  fftwf_plan p = fftwf_plan_many_dft(2, dims, planes, in, nullptr, 1, static_cast<int>(per), out, nullptr, 1,
                                     static_cast<int>(per), FFTW_FORWARD, FFTW_ESTIMATE);
  ASSERT_NE(p, nullptr);
  EXPECT_STREQ(gpufftw_plan_where(p), "gpu");
  char *printed = fftwf_sprint_plan(p);
  ASSERT_NE(printed, nullptr);
  if (!std::strstr(printed, "GPUs ")) {
    EXPECT_NE(std::strstr(printed, "device arrays: whole"), nullptr) << printed;
    EXPECT_NE(std::strstr(printed, "in chunks"), nullptr) << printed;  // host arrays still stream in chunks
  }
  std::free(printed);
  fftwf_execute(p);
  ASSERT_EQ(cudaMemcpy(host.data(), out, bytes, cudaMemcpyDeviceToHost), cudaSuccess);
  const long double pi = 3.141592653589793238462643383279502884L;
  for (int t = 0; t < planes; ++t) {
    long double num = 0, den = 0;
    for (int k = 0; k < n; ++k)
      for (int l = 0; l < n; ++l) {
        const cld ref = std::polar(1.0L, -2 * pi * static_cast<long double>((k * t + 2 * l * t) % n) / n);
        const fftwf_complex &y = host[t * per + static_cast<size_t>(k) * n + l];
        num += std::norm(cld(y[0], y[1]) - ref);
        den += std::norm(ref);
      }
    const double err = static_cast<double>(std::sqrt(num / den));
    record<float>(err);
    ASSERT_LT(err, tolerance<float>(per)) << "plane " << t;
  }
  fftwf_destroy_plan(p);
  cudaFree(in);
  cudaFree(out);
}

// Work the program queued on its default stream comes first: the input
// arrives by a copy queued behind 100 ms of host work, and the execute
// must see it. (A non-blocking engine stream would read such arrays early:
// zeros in 2 of 60 runs, with a cudaMemcpy from pageable memory.) Both of
// a program's default streams, the legacy one and its thread's own.
void impulse_behind_host_work(cudaStream_t program) {
  const int n = 1024;
  const size_t bytes = n * sizeof(fftwf_complex);
  fftwf_complex *d = nullptr, *impulse = nullptr;
  ASSERT_EQ(cudaMalloc(reinterpret_cast<void **>(&d), bytes), cudaSuccess);
  ASSERT_EQ(cudaMemset(d, 0, bytes), cudaSuccess);
  ASSERT_EQ(cudaMallocHost(reinterpret_cast<void **>(&impulse), bytes), cudaSuccess);
  std::memset(impulse, 0, bytes);
  impulse[0][0] = 1;
  fftwf_plan p = fftwf_plan_dft_1d(n, d, d, FFTW_FORWARD, FFTW_ESTIMATE);
  ASSERT_NE(p, nullptr);
  ASSERT_STREQ(gpufftw_plan_where(p), "gpu");
  auto wait = [](void *) { std::this_thread::sleep_for(std::chrono::milliseconds(100)); };
  ASSERT_EQ(cudaLaunchHostFunc(program, wait, nullptr), cudaSuccess);
  ASSERT_EQ(cudaMemcpyAsync(d, impulse, bytes, cudaMemcpyHostToDevice, program), cudaSuccess);
  fftwf_execute(p);
  std::vector<fftwf_complex> out(n);
  ASSERT_EQ(cudaMemcpy(out.data(), d, bytes, cudaMemcpyDeviceToHost), cudaSuccess);
  int wrong = 0;
  for (const fftwf_complex &v : out) wrong += std::fabs(v[0] - 1) > 1e-6 || std::fabs(v[1]) > 1e-6;
  EXPECT_EQ(wrong, 0) << "the transform of an impulse is all ones";
  fftwf_destroy_plan(p);
  cudaFreeHost(impulse);
  cudaFree(d);
}

TEST_F(Gpu, DeviceArraysWaitForTheProgramsDefaultStream) { impulse_behind_host_work(cudaStreamLegacy); }

TEST_F(Gpu, DeviceArraysWaitForTheThreadsDefaultStream) { impulse_behind_host_work(cudaStreamPerThread); }

// Where the GPU's execute fails, the real FFTW computes the call, but not
// on arrays in device memory, which it cannot reach: those of the call,
// which a new-array execute may place elsewhere than the plan's. A plan
// made on host arrays and run on device arrays leaves them uncomputed
// (the real FFTW would read them from the host and crash); one made on
// device arrays and run on host arrays is computed.
TEST_F(Gpu, AFailedExecuteFallsBackWhereTheCallsArraysLie) {
  constexpr int n = 4096;
  const size_t bytes = n * sizeof(fftwf_complex);
  fftwf_complex *hin = fftwf_alloc_complex(n), *hout = fftwf_alloc_complex(n);
  void *din = nullptr, *dout = nullptr;
  ASSERT_EQ(cudaMalloc(&din, bytes), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&dout, bytes), cudaSuccess);
  fftwf_plan on_host = fftwf_plan_dft_1d(n, hin, hout, FFTW_FORWARD, FFTW_ESTIMATE);
  fftwf_plan on_device = fftwf_plan_dft_1d(n, static_cast<fftwf_complex *>(din), static_cast<fftwf_complex *>(dout),
                                           FFTW_FORWARD, FFTW_ESTIMATE);
  ASSERT_NE(on_host, nullptr);
  ASSERT_NE(on_device, nullptr);
  ASSERT_STREQ(gpufftw_plan_where(on_host), "gpu");
  ASSERT_STREQ(gpufftw_plan_where(on_device), "gpu");
  setenv("GPUFFTW_FAULT", "execute", 1);
  fftwf_execute_dft(on_host, static_cast<fftwf_complex *>(din), static_cast<fftwf_complex *>(dout));
  // An impulse at 0: every output 1.
  for (int i = 0; i < n; ++i) hin[i][0] = i == 0, hin[i][1] = 0, hout[i][0] = hout[i][1] = -7;
  fftwf_execute_dft(on_device, hin, hout);
  unsetenv("GPUFFTW_FAULT");
  for (int i = 0; i < n; ++i) {
    ASSERT_NEAR(hout[i][0], 1, 1e-5) << i;
    ASSERT_NEAR(hout[i][1], 0, 1e-5) << i;
  }
  fftwf_destroy_plan(on_host);
  fftwf_destroy_plan(on_device);
  cudaFree(din);
  cudaFree(dout);
  fftwf_free(hin);
  fftwf_free(hout);
}

// Host arrays, c2r round trip through r2c, multi-dim, in place: FFTW's
// padded layout. The c2r of the r2c is N times the input.
template <class T, class Plan, class Complex>
void r2c_c2r_inplace(Plan (*r2c)(int, int, int, T *, Complex *, unsigned),
                     Plan (*c2r)(int, int, int, Complex *, T *, unsigned), void (*execute)(Plan),
                     void (*destroy)(Plan)) {
  const int n0 = 64, n1 = 48, n2 = 30, pad = 2 * (n2 / 2 + 1);
  std::vector<T> a(static_cast<size_t>(n0) * n1 * pad), x(static_cast<size_t>(n0) * n1 * n2);
  std::vector<T> pairs(2 * x.size());
  gpufftw_test::random_fill(pairs.data(), x.size());
  for (size_t i = 0; i < x.size(); ++i) x[i] = pairs[2 * i];
  for (int i = 0; i < n0 * n1; ++i)
    for (int k = 0; k < n2; ++k) a[static_cast<size_t>(i) * pad + k] = x[static_cast<size_t>(i) * n2 + k];
  Plan f = r2c(n0, n1, n2, a.data(), reinterpret_cast<Complex *>(a.data()), FFTW_ESTIMATE);
  Plan b = c2r(n0, n1, n2, reinterpret_cast<Complex *>(a.data()), a.data(), FFTW_ESTIMATE);
  ASSERT_TRUE(f && b);
  EXPECT_STREQ(gpufftw_plan_where(f), "gpu");
  EXPECT_STREQ(gpufftw_plan_where(b), "gpu");
  execute(f);
  execute(b);
  long double num = 0, den = 0;
  const double scale = 1.0 / (n0 * n1 * n2);
  for (int i = 0; i < n0 * n1; ++i)
    for (int k = 0; k < n2; ++k) {
      long double d = a[static_cast<size_t>(i) * pad + k] * scale - x[static_cast<size_t>(i) * n2 + k];
      num += d * d;
      den += static_cast<long double>(x[static_cast<size_t>(i) * n2 + k]) * x[static_cast<size_t>(i) * n2 + k];
    }
  double err = static_cast<double>(std::sqrt(num / den));
  record<T>(err);
  EXPECT_LT(err, 2 * tolerance<T>(static_cast<size_t>(n0) * n1 * n2));
  destroy(f);
  destroy(b);
}

TEST_F(Gpu, HostInPlaceR2cC2r3dF32) {
  r2c_c2r_inplace<float>(fftwf_plan_dft_r2c_3d, fftwf_plan_dft_c2r_3d, fftwf_execute, fftwf_destroy_plan);
}
TEST_F(Gpu, HostInPlaceR2cC2r3dF64) {
  r2c_c2r_inplace<double>(fftw_plan_dft_r2c_3d, fftw_plan_dft_c2r_3d, fftw_execute, fftw_destroy_plan);
}

// Split arrays, two howmany dims and a rank-4 transform: the gathered path.
TEST_F(Gpu, SplitArraysWithTwoLoopsRunOnTheGpu) {
  const int n = 256, h0 = 3, h1 = 5, count = n * h0 * h1;
  std::vector<double> ri(count), ii(count), ro(count), io(count), pairs(2 * count);
  std::vector<cld> x = gpufftw_test::random_fill(pairs.data(), count);
  for (int i = 0; i < count; ++i) ri[i] = pairs[2 * i], ii[i] = pairs[2 * i + 1];
  // Transform t = (a, b) lies at a*(h1*n) + b*n; element stride 1.
  fftw_iodim64 dim{n, 1, 1}, loops[2] = {{h0, h1 * n, h1 * n}, {h1, n, n}};
  fftw_plan p = fftw_plan_guru64_split_dft(1, &dim, 2, loops, ri.data(), ii.data(), ro.data(), io.data(), FFTW_ESTIMATE);
  ASSERT_NE(p, nullptr);
  EXPECT_STREQ(gpufftw_plan_where(p), "gpu");
  fftw_execute(p);
  for (int t : {0, 7, h0 * h1 - 1}) {
    std::vector<cld> xt(x.begin() + t * n, x.begin() + (t + 1) * n), ref = gpufftw_test::direct_dft(xt, FFTW_FORWARD);
    std::vector<double> got(2 * n);
    for (int k = 0; k < n; ++k) got[2 * k] = ro[t * n + k], got[2 * k + 1] = io[t * n + k];
    double err = gpufftw_test::rel_error(got.data(), ref);
    record<double>(err);
    EXPECT_LT(err, tolerance<double>(n)) << "transform " << t;
  }
  fftw_destroy_plan(p);
}

TEST_F(Gpu, Rank4RunsOnTheGpu) {
  const int n[4] = {3, 4, 5, 6}, total = 360;
  fftwf_complex *a = fftwf_alloc_complex(total);
  std::vector<cld> x = gpufftw_test::random_fill(&a[0][0], total);
  fftwf_plan p = fftwf_plan_dft(4, n, a, a, FFTW_BACKWARD, FFTW_ESTIMATE);
  ASSERT_NE(p, nullptr);
  EXPECT_STREQ(gpufftw_plan_where(p), "gpu");
  fftwf_execute(p);
  // Direct 4-D sum at a few outputs.
  const long double pi = std::acos(-1.0L);
  long double num = 0, den = 0;
  for (int k : {0, 1, 77, 359}) {
    int kk[4] = {k / 120, k / 30 % 4, k / 6 % 5, k % 6};
    cld ref = 0;
    for (int j = 0; j < total; ++j) {
      int jj[4] = {j / 120, j / 30 % 4, j / 6 % 5, j % 6};
      long double ph = 0;
      for (int d = 0; d < 4; ++d) ph += static_cast<long double>(jj[d] * kk[d]) / n[d];
      ref += x[j] * std::polar(1.0L, 2 * pi * ph);
    }
    num += std::norm(cld(a[k][0], a[k][1]) - ref);
    den += std::norm(ref);
  }
  double err = static_cast<double>(std::sqrt(num / den));
  record<float>(err);
  EXPECT_LT(err, tolerance<float>(total));
  fftwf_destroy_plan(p);
  fftwf_free(a);
}

// A batch large enough to be chunked over streams, with an odd count so
// the last chunk is short; transforms at every chunk boundary are checked.
// Pinned (fftw_malloc) and pageable (std::vector) arrays, in and out of place.
class GpuBatch : public Gpu, public testing::WithParamInterface<std::tuple<bool, bool>> {};

TEST_P(GpuBatch, EveryChunkBoundaryIsRight) {
  const bool pinned = std::get<0>(GetParam()), in_place = std::get<1>(GetParam());
  const int n = 1000, batch = 16387;
  const size_t count = static_cast<size_t>(n) * batch;
  std::vector<float> pageable_in, pageable_out;
  fftwf_complex *in, *out;
  if (pinned) {
    in = fftwf_alloc_complex(count);
    out = in_place ? in : fftwf_alloc_complex(count);
  } else {
    pageable_in.resize(2 * count);
    in = reinterpret_cast<fftwf_complex *>(pageable_in.data());
    if (!in_place) pageable_out.resize(2 * count);
    out = in_place ? in : reinterpret_cast<fftwf_complex *>(pageable_out.data());
  }
  std::vector<cld> x = gpufftw_test::random_fill(&in[0][0], count);
  fftwf_plan p = fftwf_plan_many_dft(1, &n, batch, in, nullptr, 1, n, out, nullptr, 1, n, FFTW_FORWARD, FFTW_ESTIMATE);
  ASSERT_NE(p, nullptr);
  EXPECT_STREQ(gpufftw_plan_where(p), "gpu");
  fftwf_execute(p);
  // Chunks are about 16 MB (2048 transforms here); check around each.
  std::vector<int> check = {0, 1, batch - 1};
  for (int b = 2048; b < batch; b += 2048) check.insert(check.end(), {b - 1, b});
  for (int t : check) {
    std::vector<cld> xt(x.begin() + static_cast<long>(t) * n, x.begin() + static_cast<long>(t + 1) * n);
    double err = gpufftw_test::rel_error(&out[static_cast<size_t>(t) * n][0], gpufftw_test::direct_dft(xt, FFTW_FORWARD));
    record<float>(err);
    ASSERT_LT(err, tolerance<float>(n)) << "transform " << t;
  }
  fftwf_destroy_plan(p);
  if (pinned) {
    fftwf_free(in);
    if (!in_place) fftwf_free(out);
  }
}
INSTANTIATE_TEST_SUITE_P(Memory, GpuBatch, testing::Combine(testing::Bool(), testing::Bool()));

// Large single 2-D and 3-D transforms on pinned arrays take the two-phase
// (slabs, then pencils) path; the real FFTW in double precision, on the
// same input, is the reference.
struct Shape {
  bool r2c, in_place;
  std::vector<int> n;
};
// The shape in the test's name (ctest lists it), rather than its bytes,
// which hold a heap address and differ from run to run.
void PrintTo(const Shape &s, std::ostream *os) {
  *os << (s.r2c ? "r2c " : "c2c ");
  for (size_t i = 0; i < s.n.size(); ++i) *os << (i ? "x" : "") << s.n[i];
  *os << (s.in_place ? " in-place" : " out-of-place");
}
class GpuSlabs : public Gpu, public testing::WithParamInterface<Shape> {};

TEST_P(GpuSlabs, MatchTheRealFftw) {
  const Shape &s = GetParam();
  const int rank = static_cast<int>(s.n.size());
  size_t points = 1;
  for (int v : s.n) points *= static_cast<size_t>(v);
  const size_t cpoints = s.r2c ? points / s.n.back() * (s.n.back() / 2 + 1) : points;
  float *in = fftwf_alloc_real(s.r2c ? points : 2 * points);
  float *out = s.in_place ? in : fftwf_alloc_real(2 * cpoints);
  std::vector<float> pairs(2 * points);
  gpufftw_test::random_fill(pairs.data(), points);
  const size_t in_reals = s.r2c ? points : 2 * points;
  std::copy(pairs.begin(), pairs.begin() + static_cast<long>(in_reals), in);
  fftwf_plan p = s.r2c ? fftwf_plan_dft_r2c(rank, s.n.data(), in, reinterpret_cast<fftwf_complex *>(out), FFTW_ESTIMATE)
                       : fftwf_plan_dft(rank, s.n.data(), reinterpret_cast<fftwf_complex *>(in),
                                        reinterpret_cast<fftwf_complex *>(out), FFTW_FORWARD, FFTW_ESTIMATE);
  ASSERT_NE(p, nullptr);
  EXPECT_STREQ(gpufftw_plan_where(p), "gpu");
  fftwf_execute(p);
  // Reference: the real FFTW in double precision on the same input.
  gpufftw_set_mode(GPUFFTW_MODE_CPU);
  std::vector<double> rin(pairs.begin(), pairs.begin() + static_cast<long>(in_reals)), rout(2 * cpoints);
  fftw_plan q = s.r2c ? fftw_plan_dft_r2c(rank, s.n.data(), rin.data(), reinterpret_cast<fftw_complex *>(rout.data()),
                                          FFTW_ESTIMATE)
                      : fftw_plan_dft(rank, s.n.data(), reinterpret_cast<fftw_complex *>(rin.data()),
                                      reinterpret_cast<fftw_complex *>(rout.data()), FFTW_FORWARD, FFTW_ESTIMATE);
  ASSERT_NE(q, nullptr);
  fftw_execute(q);
  long double num = 0, den = 0;
  for (size_t i = 0; i < 2 * cpoints; ++i) {
    num += (out[i] - rout[i]) * static_cast<long double>(out[i] - rout[i]);
    den += rout[i] * static_cast<long double>(rout[i]);
  }
  const double err = static_cast<double>(std::sqrt(num / den));
  record<float>(err);
  EXPECT_LT(err, tolerance<float>(points));
  fftw_destroy_plan(q);
  fftwf_destroy_plan(p);
  fftwf_free(in);
  if (!s.in_place) fftwf_free(out);
}
INSTANTIATE_TEST_SUITE_P(Shapes, GpuSlabs,
                         testing::Values(Shape{false, true, {256, 256, 128}}, Shape{false, false, {96, 200, 512}},
                                         Shape{false, false, {4096, 2048}}, Shape{true, false, {256, 256, 256}},
                                         Shape{true, false, {128, 160, 1000}}));

// Under a small device-memory cap (ctest runs these with
// GPUFFTW_DEVICE_MEMORY=64M): a batch many times the cap runs on the GPU in
// chunks; a single transform over it runs out of core, correctly.
class GpuCap : public Gpu {
 protected:
  void SetUp() override {
    Gpu::SetUp();
    if (!IsSkipped() && !std::getenv("GPUFFTW_DEVICE_MEMORY"))
      GTEST_SKIP() << "needs GPUFFTW_DEVICE_MEMORY=64M (the ctest entry gpu_device_memory_cap sets it)";
  }
};

TEST_F(GpuCap, BatchOverTheCapRunsInChunks) {
  const int n = 1024, batch = 65536;  // 512 MB each way
  const size_t count = static_cast<size_t>(n) * batch;
  fftwf_complex *in = fftwf_alloc_complex(count), *out = fftwf_alloc_complex(count);
  std::vector<cld> x = gpufftw_test::random_fill(&in[0][0], count);
  fftwf_plan p = fftwf_plan_many_dft(1, &n, batch, in, nullptr, 1, n, out, nullptr, 1, n, FFTW_FORWARD, FFTW_ESTIMATE);
  ASSERT_NE(p, nullptr);
  EXPECT_STREQ(gpufftw_plan_where(p), "gpu");
  fftwf_execute(p);
  for (int t : {0, 4095, 4096, 33333, batch - 1}) {
    std::vector<cld> xt(x.begin() + static_cast<long>(t) * n, x.begin() + static_cast<long>(t + 1) * n);
    double err = gpufftw_test::rel_error(&out[static_cast<size_t>(t) * n][0], gpufftw_test::direct_dft(xt, FFTW_FORWARD));
    ASSERT_LT(err, tolerance<float>(n)) << "transform " << t;
  }
  fftwf_destroy_plan(p);
  fftwf_free(in);
  fftwf_free(out);
}

// Single 2-D and 3-D transforms over the cap run out of core on the GPU
// (slabs of dim 0, then pencils along it, through buffers within the cap):
// in and out of place, pinned (fftw_malloc), pageable (malloc) and device
// arrays, f32 and f64, both signs, shapes that split unevenly. The real
// FFTW in double precision, on the same input, is the reference; an
// out-of-place transform's input comes back unchanged.
enum class Mem { Pinned, Pageable, Device };
struct OutOfCore {
  std::vector<int> n;
  bool in_place;
  Mem mem;
  int sign;
};

// FFTW of precision T, as these tests call it.
template <class T>
struct Fftw {
  using F = sweep::FftwApi<T>;
  using Plan = typename F::plan;
  using Complex = typename F::complex;
  static Plan plan(int rank, const int *n, void *in, void *out, int sign) {
    return F::plan_dft(rank, n, static_cast<Complex *>(in), static_cast<Complex *>(out), sign, FFTW_ESTIMATE);
  }
  static Plan plan_r2c(int rank, const int *n, void *in, void *out) {
    return F::plan_dft_r2c(rank, n, static_cast<T *>(in), static_cast<Complex *>(out), FFTW_ESTIMATE);
  }
  static void execute(Plan p) { F::execute(p); }
  static void destroy(Plan p) { F::destroy_plan(p); }
  static char *sprint(Plan p) { return F::sprint_plan(p); }
  static void *malloc(size_t b) { return F::malloc(b); }
  static void free(void *p) { F::free(p); }
};

// Uniform in [-0.5, 0.5), fresh for every call: random_fill's, without
// its long-double copy and faster (splitmix64), the arrays being large.
template <class T>
void fill(T *a, size_t count) {
  static uint64_t state = std::random_device{}() * 0x9e3779b97f4a7c15ull;
  for (size_t i = 0; i < count; ++i) {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    a[i] = static_cast<T>(static_cast<double>(z >> 11) * 0x1p-53 - 0.5);
  }
}

// The plan is the GPU's, out of core (1-D: four-step; else slabs and
// pencils); its line goes to the log of the run.
template <class F>
void expect_out_of_core(typename F::Plan p, int rank) {
  EXPECT_STREQ(gpufftw_plan_where(p), "gpu");
  char *printed = F::sprint(p);
  ASSERT_NE(printed, nullptr);
  std::printf("%s\n", printed);
  EXPECT_NE(std::strstr(printed, rank == 1 ? "out-of-core four-step" : "out-of-core slabs+pencils"), nullptr)
      << printed;
  std::free(printed);
}

// Relative L2 error of `got` against `ref`, recorded and checked.
template <class T>
void expect_close(const std::vector<T> &got, const std::vector<double> &ref, size_t points) {
  double num = 0, den = 0;  // a few digits of the ratio are all it needs
  for (size_t i = 0; i < ref.size(); ++i) {
    const double d = static_cast<double>(got[i]) - ref[i];
    num += d * d;
    den += ref[i] * ref[i];
  }
  const double err = std::sqrt(num / den);
  record<T>(err);
  EXPECT_LT(err, tolerance<T>(points));
}

// Runs the real FFTW's plan made by `make` in CPU mode, on all cores.
template <class Make>
void reference(Make make) {
  gpufftw_set_mode(GPUFFTW_MODE_CPU);
  const bool threads = fftw_init_threads() != 0;
  if (threads) fftw_plan_with_nthreads(static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
  fftw_plan q = make();
  if (threads) fftw_plan_with_nthreads(1);
  ASSERT_NE(q, nullptr);
  fftw_execute(q);
  fftw_destroy_plan(q);
}

// `fault`: GPUFFTW_FAULT set for the execute, which then runs on the CPU.
template <class T>
void out_of_core(const OutOfCore &c, const char *fault = nullptr) {
  using F = Fftw<T>;
  gpufftw_set_mode(GPUFFTW_MODE_GPU);  // the reference of an earlier case left it on the CPU
  const int rank = static_cast<int>(c.n.size());
  size_t points = 1;
  for (int v : c.n) points *= static_cast<size_t>(v);
  const size_t reals = 2 * points, bytes = reals * sizeof(T);
  std::vector<T> x(reals);  // the input, kept
  fill(x.data(), reals);
  void *in = nullptr, *out = nullptr;
  switch (c.mem) {
    case Mem::Pinned:
      in = F::malloc(bytes);
      out = c.in_place ? in : F::malloc(bytes);
      break;
    case Mem::Pageable:
      in = std::malloc(bytes);
      out = c.in_place ? in : std::malloc(bytes);
      break;
    case Mem::Device:
      ASSERT_EQ(cudaMalloc(&in, bytes), cudaSuccess);
      out = in;
      if (!c.in_place) {
        ASSERT_EQ(cudaMalloc(&out, bytes), cudaSuccess);
      }
      break;
  }
  ASSERT_TRUE(in && out);
  cudaPointerAttributes attr{};
  ASSERT_EQ(cudaPointerGetAttributes(&attr, in), cudaSuccess);
  EXPECT_EQ(attr.type, c.mem == Mem::Pinned     ? cudaMemoryTypeHost
                       : c.mem == Mem::Pageable ? cudaMemoryTypeUnregistered
                                                : cudaMemoryTypeDevice);
  typename F::Plan p = F::plan(rank, c.n.data(), in, out, c.sign);
  ASSERT_NE(p, nullptr);
  expect_out_of_core<F>(p, rank);
  // The arrays are filled after planning (FFTW's rules allow planning to
  // overwrite them).
  if (c.mem == Mem::Device)
    ASSERT_EQ(cudaMemcpy(in, x.data(), bytes, cudaMemcpyHostToDevice), cudaSuccess);
  else
    std::memcpy(in, x.data(), bytes);
  if (fault) setenv("GPUFFTW_FAULT", fault, 1);
  F::execute(p);
  unsetenv("GPUFFTW_FAULT");
  std::vector<T> got(reals), in_after;
  if (c.mem == Mem::Device) {
    ASSERT_EQ(cudaMemcpy(got.data(), out, bytes, cudaMemcpyDeviceToHost), cudaSuccess);
    if (!c.in_place) {
      in_after.resize(reals);
      ASSERT_EQ(cudaMemcpy(in_after.data(), in, bytes, cudaMemcpyDeviceToHost), cudaSuccess);
    }
  } else {
    std::memcpy(got.data(), out, bytes);
    if (!c.in_place) in_after.assign(static_cast<T *>(in), static_cast<T *>(in) + reals);
  }
  if (!c.in_place) {
    EXPECT_EQ(std::memcmp(in_after.data(), x.data(), bytes), 0) << "out-of-place input modified";
  }
  F::destroy(p);
  switch (c.mem) {
    case Mem::Pinned:
      F::free(in);
      if (!c.in_place) F::free(out);
      break;
    case Mem::Pageable:
      std::free(in);
      if (!c.in_place) std::free(out);
      break;
    case Mem::Device:
      cudaFree(in);
      if (!c.in_place) cudaFree(out);
      break;
  }
  std::vector<double> rin(x.begin(), x.end()), rout(reals);
  reference([&] {
    return fftw_plan_dft(rank, c.n.data(), reinterpret_cast<fftw_complex *>(rin.data()),
                         reinterpret_cast<fftw_complex *>(rout.data()), c.sign, FFTW_ESTIMATE);
  });
  expect_close(got, rout, points);
}

// r2c: host arrays; in place, the real rows padded to 2 (n/2 + 1).
template <class T>
void out_of_core_r2c(const OutOfCore &c) {
  using F = Fftw<T>;
  gpufftw_set_mode(GPUFFTW_MODE_GPU);
  const int rank = static_cast<int>(c.n.size());
  size_t points = 1;
  for (int v : c.n) points *= static_cast<size_t>(v);
  const size_t last = static_cast<size_t>(c.n.back()), half = last / 2 + 1, rows = points / last;
  const size_t pitch = c.in_place ? 2 * half : last;  // reals a row of the input
  const size_t in_bytes = rows * pitch * sizeof(T), out_reals = 2 * rows * half, out_bytes = out_reals * sizeof(T);
  ASSERT_NE(c.mem, Mem::Device);
  std::vector<T> x(points);  // the real input, dense, kept
  fill(x.data(), points);
  void *in = c.mem == Mem::Pinned ? F::malloc(in_bytes) : std::malloc(in_bytes);
  void *out = c.in_place ? in : c.mem == Mem::Pinned ? F::malloc(out_bytes) : std::malloc(out_bytes);
  ASSERT_TRUE(in && out);
  typename F::Plan p = F::plan_r2c(rank, c.n.data(), in, out);
  ASSERT_NE(p, nullptr);
  expect_out_of_core<F>(p, rank);
  for (size_t r = 0; r < rows; ++r) std::memcpy(static_cast<T *>(in) + r * pitch, &x[r * last], last * sizeof(T));
  F::execute(p);
  std::vector<T> got(static_cast<T *>(out), static_cast<T *>(out) + out_reals);
  if (!c.in_place) {
    EXPECT_EQ(std::memcmp(in, x.data(), in_bytes), 0) << "out-of-place input modified";
  }
  F::destroy(p);
  if (c.mem == Mem::Pinned) {
    F::free(in);
    if (!c.in_place) F::free(out);
  } else {
    std::free(in);
    if (!c.in_place) std::free(out);
  }
  std::vector<double> rin(x.begin(), x.end()), rout(out_reals);
  reference([&] {
    return fftw_plan_dft_r2c(rank, c.n.data(), rin.data(), reinterpret_cast<fftw_complex *>(rout.data()),
                             FFTW_ESTIMATE);
  });
  expect_close(got, rout, points);
}

TEST_F(GpuCap, SingleTransformOverTheCapStillRuns) {
  out_of_core<float>({{256, 256, 256}, true, Mem::Pinned, FFTW_FORWARD});  // 128 MB, twice the cap
}
TEST_F(GpuCap, OutOfCoreOutOfPlacePinned3dF32) {
  out_of_core<float>({{189, 200, 175}, false, Mem::Pinned, FFTW_FORWARD});  // 53 MB each way
}
TEST_F(GpuCap, OutOfCoreInPlacePageable3dF32Backward) {
  // 43 MB: under the cap alone, over it with the in-core job's buffers
  out_of_core<float>({{135, 160, 250}, true, Mem::Pageable, FFTW_BACKWARD});
}
TEST_F(GpuCap, OutOfCoreOutOfPlacePageable3dF32) {
  out_of_core<float>({{96, 200, 270}, false, Mem::Pageable, FFTW_FORWARD});  // 41 MB each way
}
TEST_F(GpuCap, OutOfCoreInPlacePinned2dF32) {
  out_of_core<float>({{3000, 2880}, true, Mem::Pinned, FFTW_FORWARD});  // 69 MB
}
TEST_F(GpuCap, OutOfCoreOutOfPlacePageable2dF64Backward) {
  out_of_core<double>({{1800, 2400}, false, Mem::Pageable, FFTW_BACKWARD});  // 69 MB each way
}
TEST_F(GpuCap, OutOfCoreOutOfPlacePinned3dF64) {
  out_of_core<double>({{128, 120, 150}, false, Mem::Pinned, FFTW_FORWARD});  // 37 MB each way
}
TEST_F(GpuCap, OutOfCoreOutOfPlaceDevice3dF32Backward) {
  out_of_core<float>({{160, 128, 256}, false, Mem::Device, FFTW_BACKWARD});  // 42 MB each way
}
// Faults strike before the transform writes anything: even in place, the
// CPU recomputes from the input.
TEST_F(GpuCap, OutOfCoreFaultAtAllocEndsInACorrectResult) {
  out_of_core<float>({{3000, 2880}, true, Mem::Pinned, FFTW_BACKWARD}, "alloc");
}
TEST_F(GpuCap, OutOfCoreFaultAtExecuteEndsInACorrectResult) {
  out_of_core<float>({{1800, 4000}, false, Mem::Pageable, FFTW_FORWARD}, "execute");
}
TEST_F(GpuCap, OutOfCoreR2cOutOfPlacePinned3dF32) {
  out_of_core_r2c<float>({{200, 192, 250}, false, Mem::Pinned, FFTW_FORWARD});  // 38 MB in, 39 MB out
}
TEST_F(GpuCap, OutOfCoreR2cInPlacePageable3dF64) {
  out_of_core_r2c<double>({{200, 180, 250}, true, Mem::Pageable, FFTW_FORWARD});  // 73 MB
}
TEST_F(GpuCap, OutOfCoreR2cOutOfPlacePageable2dF32OddLastDim) {
  out_of_core_r2c<float>({{2700, 3375}, false, Mem::Pageable, FFTW_FORWARD});  // 36 MB in, 36 MB out
}
TEST_F(GpuCap, OutOfCoreR2cInPlacePinned2dF32) {
  out_of_core_r2c<float>({{4000, 4500}, true, Mem::Pinned, FFTW_FORWARD});  // 72 MB
}

// Single 1-D c2c transforms over the cap run out of core by the
// four-step method: powers of two and not, square and not (2^24 = 4096^2,
// 3 * 2^22 = 3072 x 4096, 10^7 = 3125 x 3200), the same cases as above.
TEST_F(GpuCap, FourStepOutOfPlacePinned1dF32) {
  out_of_core<float>({{1 << 24}, false, Mem::Pinned, FFTW_FORWARD});  // 128 MiB each way
}
TEST_F(GpuCap, FourStepInPlacePinned1dF32Backward) {
  out_of_core<float>({{1 << 24}, true, Mem::Pinned, FFTW_BACKWARD});
}
TEST_F(GpuCap, FourStepInPlacePageable1dF32Backward) {
  out_of_core<float>({{3 << 22}, true, Mem::Pageable, FFTW_BACKWARD});  // 96 MiB
}
TEST_F(GpuCap, FourStepOutOfPlacePageable1dF32) {
  out_of_core<float>({{10000000}, false, Mem::Pageable, FFTW_FORWARD});  // 80 MB each way
}
TEST_F(GpuCap, FourStepOutOfPlacePinned1dF64Backward) {
  out_of_core<double>({{10000000}, false, Mem::Pinned, FFTW_BACKWARD});  // 160 MB each way
}
TEST_F(GpuCap, FourStepInPlacePinned1dF64) {
  out_of_core<double>({{3 << 22}, true, Mem::Pinned, FFTW_FORWARD});  // 192 MiB
}
TEST_F(GpuCap, FourStepOutOfPlacePageable1dF64) {
  out_of_core<double>({{1 << 23}, false, Mem::Pageable, FFTW_FORWARD});  // 128 MiB each way
}
TEST_F(GpuCap, FourStepInPlacePageable1dF64Backward) {
  out_of_core<double>({{10000000}, true, Mem::Pageable, FFTW_BACKWARD});
}
TEST_F(GpuCap, FourStepOutOfPlaceDevice1dF32Backward) {
  out_of_core<float>({{3 << 22}, false, Mem::Device, FFTW_BACKWARD});
}
TEST_F(GpuCap, FourStepFaultAtAllocEndsInACorrectResult) {
  out_of_core<float>({{1 << 24}, true, Mem::Pinned, FFTW_FORWARD}, "alloc");
}
// A prime n has no four-step split: over the cap, it stays on the CPU.
TEST_F(GpuCap, FourStepLeavesALargePrimeToTheCpu) {
  const int n = 10000019;  // prime; 160 MB each way in f32
  fftwf_complex *in = fftwf_alloc_complex(n), *out = fftwf_alloc_complex(n);
  ASSERT_TRUE(in && out);
  fftwf_plan p = fftwf_plan_dft_1d(n, in, out, FFTW_FORWARD, FFTW_ESTIMATE);
  ASSERT_NE(p, nullptr);
  EXPECT_STREQ(gpufftw_plan_where(p), "cpu");
  EXPECT_NE(std::strstr(gpufftw_plan_why(p), "is prime"), nullptr) << gpufftw_plan_why(p);
  fftwf_destroy_plan(p);
  fftwf_free(in);
  fftwf_free(out);
}

// A fault at any step ends in a right answer: at planning the plan is the
// CPU's, at execute the call is redone on the CPU.
class GpuFault : public Gpu, public testing::WithParamInterface<const char *> {};

TEST_P(GpuFault, EndsInACorrectResult) {
  const bool at_plan = std::strcmp(GetParam(), "plan") == 0;
  if (at_plan) setenv("GPUFFTW_FAULT", GetParam(), 1);
  const int n = 1 << 12;
  fftwf_complex *a = fftwf_alloc_complex(n), *b = fftwf_alloc_complex(n);
  std::vector<cld> x = gpufftw_test::random_fill(&a[0][0], n);
  fftwf_plan p = fftwf_plan_dft_1d(n, a, b, FFTW_BACKWARD, FFTW_ESTIMATE);
  ASSERT_NE(p, nullptr);
  EXPECT_STREQ(gpufftw_plan_where(p), at_plan ? "cpu" : "gpu");
  setenv("GPUFFTW_FAULT", GetParam(), 1);
  fftwf_execute(p);
  EXPECT_LT(gpufftw_test::rel_error(&b[0][0], gpufftw_test::direct_dft(x, FFTW_BACKWARD)), tolerance<float>(n));
  fftwf_destroy_plan(p);
  fftwf_free(a);
  fftwf_free(b);
}
INSTANTIATE_TEST_SUITE_P(Steps, GpuFault, testing::Values("plan", "execute", "alloc"));

TEST_F(Gpu, FftwMallocIsPinnedAndFreedAfterModeChange) {
  void *p = fftw_malloc(8 << 20);
  cudaPointerAttributes attr{};
  ASSERT_EQ(cudaPointerGetAttributes(&attr, p), cudaSuccess);
  EXPECT_EQ(attr.type, cudaMemoryTypeHost) << "large fftw_malloc arrays are pinned";
  gpufftw_set_mode(GPUFFTW_MODE_CPU);
  fftw_free(p);
  void *q = fftw_malloc(8 << 20);  // CPU mode: plain memory
  ASSERT_EQ(cudaPointerGetAttributes(&attr, q), cudaSuccess);
  EXPECT_EQ(attr.type, cudaMemoryTypeUnregistered);
  fftw_free(q);
}

// The relative L2 distance of `got` from `want` over their first `count` floats.
double rel_l2(const float *got, const float *want, size_t count) {
  double err = 0, norm = 0;
  for (size_t i = 0; i < count; ++i) {
    const double d = static_cast<double>(got[i]) - want[i];
    err += d * d;
    norm += static_cast<double>(want[i]) * want[i];
  }
  return std::sqrt(err / norm);
}

// `plan` on the real FFTW (GPUFFTW_MODE=cpu) on copies of `in`'s `in_floats`
// floats, into an array of `out_floats` marked as `out` was: the reference.
std::vector<float> on_the_real_fftw(const std::function<fftwf_plan(float *, float *)> &plan, const float *in,
                                    size_t in_floats, const float *out, size_t out_floats, bool in_place) {
  gpufftw_set_mode(GPUFFTW_MODE_CPU);
  std::vector<float> a(in, in + in_floats), b(out, out + out_floats);
  fftwf_plan p = plan(a.data(), in_place ? a.data() : b.data());
  EXPECT_NE(p, nullptr);
  if (p) {
    fftwf_execute(p);
    fftwf_destroy_plan(p);
  }
  gpufftw_set_mode(GPUFFTW_MODE_GPU);
  return in_place ? a : b;
}

// A batch whose output transforms lie apart (a distance past one
// transform's length), large enough to go in chunks: FFTW writes the
// outputs alone, so the gaps keep the program's bytes.
TEST_F(Gpu, ABatchsOutputGapsKeepTheProgramsBytes) {
  constexpr int n = 4096, count = 2048, odist = n + 4;
  const size_t in_floats = size_t{2} * n * count, out_floats = size_t{2} * odist * count;
  float *in = reinterpret_cast<float *>(fftwf_alloc_complex(in_floats / 2));
  float *out = reinterpret_cast<float *>(fftwf_alloc_complex(out_floats / 2));
  fill(in, in_floats);
  std::fill(out, out + out_floats, 7.0f);
  auto plan = [&](float *i, float *o) {
    return fftwf_plan_many_dft(1, &n, count, reinterpret_cast<fftwf_complex *>(i), nullptr, 1, n,
                               reinterpret_cast<fftwf_complex *>(o), nullptr, 1, odist, FFTW_FORWARD, FFTW_ESTIMATE);
  };
  const std::vector<float> want = on_the_real_fftw(plan, in, in_floats, out, out_floats, false);
  fftwf_plan p = plan(in, out);
  ASSERT_NE(p, nullptr);
  ASSERT_STREQ(gpufftw_plan_where(p), "gpu") << gpufftw_plan_why(p);
  fftwf_execute(p);
  for (int b = 0; b < count; ++b)
    for (int g = 2 * n; g < 2 * odist; ++g) ASSERT_EQ(out[size_t{2} * odist * b + g], 7.0f) << "transform " << b;
  EXPECT_LT(rel_l2(out, want.data(), out_floats), 1e-5) << gpufftw_plan_why(p);
  fftwf_destroy_plan(p);
  fftwf_free(in);
  fftwf_free(out);
}

// In place with the output transposed against the input (FFTW takes any
// two layouts in place): the GPU's answer is the real FFTW's.
TEST_F(Gpu, InPlaceThroughTwoLayoutsMatchesTheRealFftw) {
  constexpr int n = 1024, count = 512;
  const size_t floats = size_t{2} * n * count;
  for (bool pinned : {true, false}) {
    float *a = pinned ? reinterpret_cast<float *>(fftwf_alloc_complex(floats / 2)) : new float[floats];
    fill(a, floats);
    auto plan = [&](float *i, float *) {
      return fftwf_plan_many_dft(1, &n, count, reinterpret_cast<fftwf_complex *>(i), nullptr, 1, n,
                                 reinterpret_cast<fftwf_complex *>(i), nullptr, count, 1, FFTW_FORWARD,
                                 FFTW_ESTIMATE);
    };
    const std::vector<float> want = on_the_real_fftw(plan, a, floats, a, 0, true);
    fftwf_plan p = plan(a, a);
    ASSERT_NE(p, nullptr);
    ASSERT_STREQ(gpufftw_plan_where(p), "gpu") << gpufftw_plan_why(p);
    fftwf_execute(p);
    EXPECT_LT(rel_l2(a, want.data(), floats), 1e-5) << (pinned ? "pinned: " : "pageable: ") << gpufftw_plan_why(p);
    fftwf_destroy_plan(p);
    if (pinned)
      fftwf_free(a);
    else
      delete[] a;
  }
}

}  // namespace
