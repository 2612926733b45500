// The single-precision kernels (one file per precision: they compile in parallel).
#include "engine/kernels/fft_kernel.cuh"

namespace gpufftw::engine::kernels {

cudaError_t launch_f32(Mode mode, const KernelParams &p, const void *in, void *out, cudaStream_t stream) {
  return launch_mode<float>(mode, p, in, out, stream);
}

cudaError_t allow_shared_f32(Mode mode, int bytes) { return allow_shared<float>(mode, bytes); }

}  // namespace gpufftw::engine::kernels
