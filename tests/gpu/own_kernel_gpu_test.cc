// The engine's choice between our own kernels and cuFFT (engine/in_core/own_kernel.h)
// on a batched c2c of device arrays (1-D, four-step, 2-D, 3-D): a recalled pick is the kernel that
// runs (path() names it) and gives FFTW's answer; without one, tuning times
// the variants and cuFFT once, remembers the winner, and that runs; past
// the plan's deadline nothing is tuned and cuFFT runs, saying so. Every
// test skips, saying so, where there is no usable GPU.
#include <cuda_runtime_api.h>
#include <fftw3.h>
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "core/time_limit.h"
#include "engine/engine.h"
#include "engine/in_core/own_kernel.h"
#include "engine/kernels/stockham.h"

namespace {

using gpufftw::engine::FftJob;
using gpufftw::engine::Geometry;
using gpufftw::KernelPick;
using gpufftw::engine::Real;

// A store in memory, counting what the engine remembers in it.
struct FakeStore {
  std::map<std::string, KernelPick> picks;
  int remembered = 0;
};
FakeStore *fake = nullptr;

class OwnKernel : public testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    if (!gpufftw::engine::gpu_available(&why)) GTEST_SKIP() << "no usable GPU here (" << why << "): skipped";
    fake = &store_;
    gpufftw::engine::set_kernel_pick_store(
        {[](const std::string &k, KernelPick *p) {
           auto it = fake->picks.find(k);
           return it != fake->picks.end() && (*p = it->second, true);
         },
         [](const std::string &k, const KernelPick &p) {
           fake->picks[k] = p;
           ++fake->remembered;
         }});
  }
  void TearDown() override { gpufftw::engine::set_kernel_pick_store({}); }
  FakeStore store_;
};

// On one GPU: a pick is keyed by the batch the job runs, and a split over
// several GPUs runs parts of other batches (SplitPartsRunTheirPicks).
Geometry batched(int n, long long batch, Real real, int sign, bool in_place) {
  Geometry g;
  g.spread = gpufftw::Spread::One;
  g.real = real;
  g.sign = sign;
  g.dims = {{n, 1, 1}};
  g.loops = {{batch, n, n}};
  g.in_place = in_place;
  return g;
}

// Relative L2 error of one run of `job` on device arrays against FFTW in
// double; -1 with a failure added where a CUDA call or the run failed.
template <class T>
double run_and_check(FftJob *job, const Geometry &g) {
  std::vector<int> dims;
  int n = 1;
  for (const auto &a : g.dims) dims.push_back(static_cast<int>(a.n)), n *= static_cast<int>(a.n);
  const long long batch = g.loops[0].n;
  const size_t values = static_cast<size_t>(n) * batch;
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-0.5, 0.5);
  std::vector<T> x(2 * values), y(2 * values);
  for (T &v : x) v = static_cast<T>(u(rng));
  void *in = nullptr, *out = nullptr;
  const size_t bytes = 2 * sizeof(T) * values;
  if (cudaMalloc(&in, bytes) != cudaSuccess || (!g.in_place && cudaMalloc(&out, bytes) != cudaSuccess)) {
    ADD_FAILURE() << "cudaMalloc";
    return -1;
  }
  if (g.in_place) out = in;
  EXPECT_EQ(cudaMemcpy(in, x.data(), bytes, cudaMemcpyHostToDevice), cudaSuccess);
  if (!g.in_place) {
    EXPECT_EQ(cudaMemset(out, 0xff, bytes), cudaSuccess);
  }
  std::string why;
  void *const ins[2] = {in, nullptr}, *const outs[2] = {out, nullptr};
  const bool ran = job->run(ins, outs, &why);
  EXPECT_TRUE(ran) << why;
  EXPECT_EQ(cudaMemcpy(y.data(), out, bytes, cudaMemcpyDeviceToHost), cudaSuccess);
  cudaFree(in);
  if (!g.in_place) cudaFree(out);
  if (!ran) return -1;

  std::vector<std::complex<double>> a(values), ref(values);
  for (size_t i = 0; i < values; ++i) a[i] = {x[2 * i], x[2 * i + 1]};
  const int b = static_cast<int>(batch);
  fftw_plan p = fftw_plan_many_dft(static_cast<int>(dims.size()), dims.data(), b,
                                   reinterpret_cast<fftw_complex *>(a.data()), nullptr, 1, n,
                                   reinterpret_cast<fftw_complex *>(ref.data()), nullptr, 1, n, g.sign, FFTW_ESTIMATE);
  fftw_execute(p);
  fftw_destroy_plan(p);
  double err = 0, norm = 0;
  for (size_t i = 0; i < values; ++i) {
    err += std::norm(std::complex<double>(y[2 * i], y[2 * i + 1]) - ref[i]);
    norm += std::norm(ref[i]);
  }
  const double rel = std::sqrt(err / norm);
  return std::isnan(rel) ? 1e300 : rel;
}

TEST_F(OwnKernel, RecalledPickRunsAndIsRight) {
  for (bool in_place : {false, true})
    for (int sign : {-1, 1}) {
      const Geometry g = batched(1000, 2000 + (in_place ? 1 : 0), Real::F32, sign, in_place);
      store_.picks["c2c.f32.n1000.b" + std::to_string(g.loops[0].n) + (in_place ? ".ip" : ".oop")] =
          KernelPick{"stages8-128", 1e-4, 2e-4};
      std::string why;
      auto job = FftJob::create(g, &why);
      ASSERT_TRUE(job) << why;
      EXPECT_EQ(job->path().rfind("own kernel stages8-128", 0), 0u) << job->path();
      EXPECT_LT(run_and_check<float>(job.get(), g), 5e-7) << job->path();
    }
  EXPECT_EQ(store_.remembered, 0);
}

// Past one pass: a recalled pick runs the four-step 1-D and the 2-D/3-D
// passes (keys with the shape), and is right.
TEST_F(OwnKernel, RecalledMultiPassPicksRunAndAreRight) {
  struct Case {
    std::vector<long long> dims;
    const char *key;
  };
  for (const Case &c : {Case{{65536}, "c2c.f32.n65536.b4.oop"}, Case{{1000, 768}, "c2c.f32.n1000x768.b4.oop"},
                        Case{{17, 33, 64}, "c2c.f32.n17x33x64.b4.oop"}}) {
    Geometry g = batched(1, 4, Real::F32, -1, false);
    long long size = 1;
    g.dims.clear();
    for (size_t k = c.dims.size(); k-- > 0;) {
      g.dims.insert(g.dims.begin(), {c.dims[k], size, size});
      size *= c.dims[k];
    }
    g.loops = {{4, size, size}};
    EXPECT_EQ(gpufftw::engine::kernel_pick_key(g), c.key);
    store_.picks[c.key] = KernelPick{"stages16-128", 1e-4, 2e-4};
    std::string why;
    auto job = FftJob::create(g, &why);
    ASSERT_TRUE(job) << why;
    EXPECT_EQ(job->path().rfind("own kernel ", 0), 0u) << job->path();
    std::printf("%s: %s\n", c.key, job->path().c_str());
    EXPECT_LT(run_and_check<float>(job.get(), g), 1e-6) << job->path();
  }
}

TEST_F(OwnKernel, RecalledCufftPickRunsCufft) {
  const Geometry g = batched(64, 3001, Real::F64, -1, false);
  store_.picks["c2c.f64.n64.b3001.oop"] = KernelPick{"cufft", 2e-4, 1e-4};
  std::string why;
  auto job = FftJob::create(g, &why);
  ASSERT_TRUE(job) << why;
  EXPECT_EQ(job->path().rfind("cuFFT (tuned", 0), 0u) << job->path();
  EXPECT_LT(run_and_check<double>(job.get(), g), 1e-15);
}

// Tuned once, remembered, recalled by the next job of the problem: a
// batch the engine would run through cuFFT in chunks (over 32 MiB), and
// one it runs whole.
TEST_F(OwnKernel, TuningRemembersTheWinnerAndItRuns) {
  for (int n : {16, 1009}) {
    const Geometry g = batched(n, n == 16 ? 1 << 17 : 500, Real::F64, 1, false);
    const std::string key = "c2c.f64.n" + std::to_string(n) + ".b" + std::to_string(g.loops[0].n) + ".oop";
    const int before = store_.remembered;
    std::string why;
    auto job = FftJob::create(g, &why);
    ASSERT_TRUE(job) << why;
    ASSERT_EQ(store_.remembered, before + 1) << job->path();
    const KernelPick pick = store_.picks.at(key);
    gpufftw::engine::kernels::Variant v;
    if (pick.variant == "cufft") {
      EXPECT_EQ(job->path().rfind("cuFFT (tuned", 0), 0u) << job->path();
    } else {
      ASSERT_TRUE(gpufftw::engine::kernels::Variant::parse(pick.variant, &v)) << pick.variant;
      EXPECT_EQ(job->path().rfind("own kernel " + pick.variant, 0), 0u) << job->path();
      EXPECT_LT(pick.own_s, pick.cufft_s);
    }
    EXPECT_GT(pick.own_s, 0);
    EXPECT_GT(pick.cufft_s, 0);
    std::printf("n=%d: %s\n", n, job->path().c_str());
    EXPECT_LT(run_and_check<double>(job.get(), g), 2e-15) << job->path();
    auto again = FftJob::create(g, &why);
    ASSERT_TRUE(again) << why;
    EXPECT_EQ(store_.remembered, before + 1);
    EXPECT_EQ(again->path(), job->path());
  }
}

// Past the deadline of the plan being made (fftw_set_timelimit's), as
// FFTW's planner stops timing, no variant is timed: cuFFT runs, the path
// says why, and nothing is remembered, so that a plan with time tunes.
TEST_F(OwnKernel, PastThePlansDeadlineCufftRunsUntunedAndNothingIsRemembered) {
  const Geometry g = batched(32, 1 << 16, Real::F64, -1, false);
  const int before = store_.remembered;
  std::string why;
  std::unique_ptr<FftJob> job;
  {
    const gpufftw::PlanDeadline passed(gpufftw::Deadline(0));
    job = FftJob::create(g, &why);
  }
  ASSERT_TRUE(job) << why;
  EXPECT_EQ(store_.remembered, before);
  EXPECT_EQ(job->path().rfind("cuFFT", 0), 0u) << job->path();
  EXPECT_NE(job->path().find("own kernels not tuned: the program's time limit has passed"), std::string::npos)
      << job->path();
  EXPECT_LT(run_and_check<double>(job.get(), g), 2e-15) << job->path();
  auto with_time = FftJob::create(g, &why);
  ASSERT_TRUE(with_time) << why;
  EXPECT_EQ(store_.remembered, before + 1) << with_time->path();
}

// Split over the device set, each GPU's part is a job of its own batch,
// which recalls the pick of that batch. Needs two GPUs.
TEST_F(OwnKernel, SplitPartsRunTheirPicks) {
  const size_t gpus = gpufftw::engine::devices().size();
  if (gpus < 2) GTEST_SKIP() << "one GPU in the device set: no split to test";
  Geometry g = batched(1000, 1000 * static_cast<long long>(gpus), Real::F32, -1, false);
  g.spread = gpufftw::Spread::Set;
  store_.picks["c2c.f32.n1000.b1000.oop"] = KernelPick{"stages8-128", 1e-4, 2e-4};
  std::string why;
  auto job = FftJob::create(g, &why);
  ASSERT_TRUE(job) << why;
  EXPECT_EQ(job->placement.rfind("GPUs ", 0), 0u) << job->placement;
  EXPECT_EQ(job->path().rfind("own kernel stages8-128", 0), 0u) << job->path();
  // Each part recalled its pick: none was tuned.
  EXPECT_EQ(store_.remembered, 0);
  // Device arrays lie on one GPU, where the whole batch runs (and may tune
  // its own pick): the answer is still FFTW's.
  EXPECT_LT(run_and_check<float>(job.get(), g), 5e-7) << job->path();
}

}  // namespace
