// The engine's sticky-error state without a GPU: which CUDA
// errors lose the context, and that check() of one marks the engine lost
// for the process, keeping the first reason. (One process, one state: the
// transitions are tested in order, in one test.)
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <string>

#include "engine/device/context.h"
#include "engine/device/sticky.h"
#include "engine/engine.h"

namespace gpufftw::engine {
namespace {

TEST(Sticky, ContextKillingErrorsAreStickyAndOthersAreNot) {
  for (cudaError_t e : {cudaErrorLaunchFailure, cudaErrorIllegalAddress, cudaErrorHardwareStackError,
                        cudaErrorIllegalInstruction, cudaErrorMisalignedAddress, cudaErrorInvalidAddressSpace,
                        cudaErrorInvalidPc, cudaErrorAssert, cudaErrorECCUncorrectable, cudaErrorLaunchTimeout,
                        cudaErrorContextIsDestroyed, cudaErrorUnknown})
    EXPECT_TRUE(sticky_error(e)) << cudaGetErrorName(e);
  for (cudaError_t e : {cudaSuccess, cudaErrorMemoryAllocation, cudaErrorInvalidValue, cudaErrorNotReady,
                        cudaErrorNoDevice, cudaErrorInsufficientDriver, cudaErrorInvalidDevice,
                        cudaErrorLaunchOutOfResources, cudaErrorPeerAccessAlreadyEnabled, cudaErrorCudartUnloading})
    EXPECT_FALSE(sticky_error(e)) << cudaGetErrorName(e);
}

TEST(Sticky, CheckOfAStickyErrorLosesTheEngineForGood) {
  std::string why;
  EXPECT_FALSE(gpu_lost(&why));
  // The call as GPUFFTW_CK quotes it: named by its function, without the
  // engine's own variables.
  EXPECT_FALSE(check(cudaErrorMemoryAllocation, "cudaMallocAsync(&p, bytes, stream)", &why));
  EXPECT_EQ(why, "cudaMallocAsync: cudaErrorMemoryAllocation (out of memory)");
  EXPECT_FALSE(gpu_lost()) << "out of memory is no reason to give the GPU up";
  EXPECT_FALSE(check(cudaErrorIllegalAddress, "cudaStreamSynchronize", &why));
  std::string lost;
  ASSERT_TRUE(gpu_lost(&lost));
  EXPECT_EQ(lost.find("cudaStreamSynchronize: cudaErrorIllegalAddress"), 0u) << lost;
  EXPECT_FALSE(check(cudaErrorLaunchFailure, "cudaEventSynchronize", &why));
  ASSERT_TRUE(gpu_lost(&lost));
  EXPECT_EQ(lost.find("cudaStreamSynchronize"), 0u) << "the first reason is kept: " << lost;
  EXPECT_FALSE(gpu_available(&why)) << "a lost engine is not available";
  EXPECT_EQ(alloc_pinned(1 << 20), nullptr) << "nor is its pinned memory";
}

}  // namespace
}  // namespace gpufftw::engine
