// CUDA errors that leave a context unusable, and the engine's state once
// one was seen. Such an error is "sticky": every later call in the
// process's context fails with it, and only a new process gets a working
// one. No CUDA runtime call in here, so the classification and the state's
// transitions are tested without a GPU (tests/dispatch/sticky_test.cc).
#pragma once

#include <cuda_runtime_api.h>

#include <string>

namespace gpufftw::engine {

// True for the errors after which a context cannot be trusted: a kernel
// that faulted or trapped, a device-side assert, an uncorrectable ECC
// error, a watchdog timeout, a context destroyed under us, and the errors
// CUDA gives where the driver cannot say what went wrong.
bool sticky_error(cudaError_t e);

// Marks the engine lost for the rest of the process (any device's sticky
// error: the set's work is spread over all of them); the first reason is
// kept. gpu_lost() (engine.h) reads it.
void lose_engine(const std::string &why);

}  // namespace gpufftw::engine
