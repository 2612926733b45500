// The single-precision kernels (one file per precision: they compile in parallel).
#include "engine/kernels/fft_kernel.cuh"

namespace gpufftw::engine::kernels {

cudaError_t launch_f32(KernelKind k, const Grid &g, const KernelParams &p, const void *in, void *out,
                       cudaStream_t stream) {
  return launch_kind<float>(k, g, p, in, out, stream);
}

cudaError_t launch_strided_f32(KernelKind k, const Grid &g, const KernelParams &p, const StridedParams &q,
                               const void *in, void *out, cudaStream_t stream) {
  return launch_strided<float>(k, g, p, q, in, out, stream);
}

cudaError_t allow_shared_f32(KernelKind k, int n, int bytes) { return allow_shared<float>(k, n, bytes); }

cudaError_t attributes_f32(KernelKind k, int n, cudaFuncAttributes *a) { return attributes<float>(k, n, a); }

cudaError_t resident_blocks_f32(KernelKind k, int n, int threads, size_t shared, int *blocks) {
  return resident_blocks<float>(k, n, threads, shared, blocks);
}

}  // namespace gpufftw::engine::kernels
