// A kernel that executes __trap(), for the GPUFFTW_FAULT=sticky test hook.
#pragma once

#include <cuda_runtime_api.h>

namespace gpufftw::engine {

// Launches it on the current device and waits: the sticky error it leaves.
cudaError_t launch_trap();

}  // namespace gpufftw::engine
