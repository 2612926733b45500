// Whether CUDA has a device here, and if not why: the GPU tests of the
// engine's parts skip without one and say so, so that CI (no GPU) passes.
#pragma once

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <string>

inline bool usable_gpu(std::string *why) {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) *why = std::string("cudaGetDeviceCount: ") + cudaGetErrorString(e);
  else if (count == 0) *why = "no CUDA device";
  return e == cudaSuccess && count > 0;
}

// The fixture of those tests: each skips, saying why, where there is no
// usable GPU.
class UsableGpuTest : public testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    if (!usable_gpu(&why)) GTEST_SKIP() << "no usable GPU here (" << why << "): GPU tests skipped";
  }
};
