// The test hook GPUFFTW_FAULT=sticky: a kernel that traps, which leaves
// the context with a real sticky error (cudaErrorLaunchFailure), as a
// faulting kernel of ours or a broken device would.
#include "engine/device/trap.h"

namespace gpufftw::engine {
namespace {

__global__ void trap_kernel() { __trap(); }

}  // namespace

cudaError_t launch_trap() {
  trap_kernel<<<1, 1>>>();
  const cudaError_t launched = cudaGetLastError();
  return launched != cudaSuccess ? launched : cudaDeviceSynchronize();
}

}  // namespace gpufftw::engine
