// Device memory taken between plan and execute: after a GPU
// plan is made, the test takes almost all free device memory (as another
// process could) and executes. The execute must still be right (the job
// cannot get its buffers and the call runs on the real FFTW), the GPU must
// stay usable (out of memory is no sticky error), and executes that could
// not get memory must leave gpufftw holding no more device memory than
// before them, and destroying the plan no more either.
#include <cuda_runtime_api.h>
#include <fftw3.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include "gpufftw/gpufftw.h"

namespace {

size_t free_device_memory() {
  // The stream-ordered pool keeps what gpufftw's jobs freed (a setting of
  // the engine's): hand that back first, so what is counted is held.
  int device = 0;
  cudaMemPool_t pool;
  if (cudaGetDevice(&device) == cudaSuccess && cudaDeviceGetDefaultMemPool(&pool, device) == cudaSuccess)
    cudaMemPoolTrimTo(pool, 0);
  cudaDeviceSynchronize();
  size_t free_bytes = 0, total = 0;
  cudaMemGetInfo(&free_bytes, &total);
  return free_bytes;
}

// Takes device memory in blocks until none is left but `leave` bytes.
std::vector<void *> take_almost_all(size_t leave) {
  std::vector<void *> taken;
  for (size_t block = size_t{1} << 30; block >= (size_t{1} << 20); block /= 2)
    for (;;) {
      size_t free_bytes = 0, total = 0;
      cudaMemGetInfo(&free_bytes, &total);
      if (free_bytes < block + leave) break;
      void *p = nullptr;
      if (cudaMalloc(&p, block) != cudaSuccess) {
        cudaGetLastError();
        break;
      }
      taken.push_back(p);
    }
  return taken;
}

TEST(MemoryTaken, BetweenPlanAndExecuteTheResultIsRightAndNothingIsKept) {
  if (!gpufftw_gpu_available()) GTEST_SKIP() << "no usable GPU here: GPU tests skipped";
  gpufftw_set_mode(GPUFFTW_MODE_GPU);
  const int n = 1 << 24;  // 128 MiB each way in f32: more than what is left free
  fftwf_complex *in = fftwf_alloc_complex(n), *out = fftwf_alloc_complex(n), *ref = fftwf_alloc_complex(n);
  ASSERT_TRUE(in && out && ref);
  std::mt19937 rng(27);
  std::uniform_real_distribution<float> u(-0.5f, 0.5f);
  std::vector<float> x(2 * static_cast<size_t>(n));
  for (float &v : x) v = u(rng);
  gpufftw_set_mode(GPUFFTW_MODE_CPU);
  fftwf_plan cpu = fftwf_plan_dft_1d(n, in, ref, FFTW_FORWARD, FFTW_ESTIMATE);
  std::memcpy(in, x.data(), x.size() * sizeof(float));
  fftwf_execute(cpu);
  fftwf_destroy_plan(cpu);
  gpufftw_set_mode(GPUFFTW_MODE_GPU);

  fftwf_plan p = fftwf_plan_dft_1d(n, in, out, FFTW_FORWARD, FFTW_ESTIMATE);
  ASSERT_NE(p, nullptr);
  ASSERT_STREQ(gpufftw_plan_where(p), "gpu") << gpufftw_plan_why(p);
  auto check = [&](const char *when) {
    double d = 0, w = 0;
    for (size_t i = 0; i < 2 * static_cast<size_t>(n); ++i) {
      const double g = (&out[0][0])[i], r = (&ref[0][0])[i];
      d += (g - r) * (g - r), w += r * r;
    }
    EXPECT_LT(std::sqrt(d / w), 1e-5) << when;
  };
  auto run = [&](const char *when) {
    std::memcpy(in, x.data(), x.size() * sizeof(float));
    std::memset(out, 0, sizeof(fftwf_complex) * n);
    fftwf_execute(p);
    check(when);
  };
  auto run_with_memory_taken = [&](const char *when) {
    const size_t before = free_device_memory();
    std::vector<void *> taken = take_almost_all(size_t{16} << 20);
    std::printf("%s: %.0f MiB free, %.0f MiB left to gpufftw (%zu blocks taken)\n", when, before / 1048576.0,
                free_device_memory() / 1048576.0, taken.size());
    run(when);
    for (void *b : taken) cudaFree(b);
    EXPECT_TRUE(gpufftw_gpu_available()) << "out of memory lost the GPU";
  };
  // Between plan and the first execute.
  run_with_memory_taken("the first execute, memory taken after planning");
  run("the next, memory given back");
  const size_t warm = free_device_memory();
  // Again once the plan has run on the GPU: nothing kept by the failed call.
  run_with_memory_taken("an execute after the plan ran, memory taken again");
  run("the next, memory given back again");
  const size_t after = free_device_memory();
  fftwf_destroy_plan(p);
  const size_t at_end = free_device_memory();
  std::printf("free device memory: %.0f MiB with the plan warm, %.0f MiB after, %.0f MiB once destroyed\n",
              warm / 1048576.0, after / 1048576.0, at_end / 1048576.0);
  const size_t slack = size_t{8} << 20;
  EXPECT_GE(after + slack, warm) << "device memory kept by the executes that found none free";
  // The plan's cuFFT plan stays cached for the next plan of its shape
  // (engine/cufft/plan_cache.cc), as it was held while the plan lived.
  EXPECT_GE(at_end + slack, warm) << "device memory kept after the plan was destroyed";
  fftwf_free(in);
  fftwf_free(out);
  fftwf_free(ref);
}

}  // namespace
