// The double-precision kernels (one file per precision: they compile in parallel).
#include "engine/kernels/fft_kernel.cuh"

namespace gpufftw::engine::kernels {

cudaError_t launch_f64(KernelKind k, const Grid &g, const KernelParams &p, const void *in, void *out,
                       cudaStream_t stream) {
  return launch_kind<double>(k, g, p, in, out, stream);
}

cudaError_t launch_strided_f64(KernelKind k, const Grid &g, const KernelParams &p, const StridedParams &q,
                               const void *in, void *out, cudaStream_t stream) {
  return launch_strided<double>(k, g, p, q, in, out, stream);
}

cudaError_t allow_shared_f64(KernelKind k, int n, int bytes) { return allow_shared<double>(k, n, bytes); }

cudaError_t attributes_f64(KernelKind k, int n, cudaFuncAttributes *a) { return attributes<double>(k, n, a); }

cudaError_t resident_blocks_f64(KernelKind k, int n, int threads, size_t shared, int *blocks) {
  return resident_blocks<double>(k, n, threads, shared, blocks);
}

}  // namespace gpufftw::engine::kernels
