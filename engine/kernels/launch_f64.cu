// The double-precision kernels (one file per precision: they compile in parallel).
#include "engine/kernels/fft_kernel.cuh"

namespace gpufftw::engine::kernels {

cudaError_t launch_f64(Mode mode, const KernelParams &p, const void *in, void *out, cudaStream_t stream) {
  return launch_mode<double>(mode, p, in, out, stream);
}

cudaError_t allow_shared_f64(Mode mode, int bytes) { return allow_shared<double>(mode, bytes); }

}  // namespace gpufftw::engine::kernels
