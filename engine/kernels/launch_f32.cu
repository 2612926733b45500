// The single-precision kernels (one file per precision: they compile in parallel).
#include "engine/kernels/fft_kernel.cuh"

namespace gpufftw::engine::kernels {

cudaError_t launch_f32(KernelKind k, const KernelParams &p, const void *in, void *out, cudaStream_t stream) {
  return launch_kind<float>(k, p, in, out, stream);
}

cudaError_t allow_shared_f32(KernelKind k, int n, int bytes) { return allow_shared<float>(k, n, bytes); }

cudaError_t attributes_f32(KernelKind k, int n, cudaFuncAttributes *a) { return attributes<float>(k, n, a); }

}  // namespace gpufftw::engine::kernels
