// Kernels that move a strided complex or real array to and from a dense
// buffer: how split arrays, several loops and strides cuFFT cannot state
// reach cuFFT.
#pragma once

#include <cuda_runtime_api.h>

namespace gpufftw::engine {

constexpr int kMaxAxes = 8;

// Element i of the dense buffer (row-major over n[0..naxes)) is the element
// at offset sum(idx_k * stride_k) of the strided array; component c of that
// element is comp[c][offset * step] (interleaved: comp = {p, p+1}, step 2;
// split: comp = {re, im}, step 1; real: comp = {p, nullptr}, step 1).
struct Strided {
  int naxes = 0;
  long long n[kMaxAxes] = {};
  long long stride[kMaxAxes] = {};
  const void *comp[2] = {nullptr, nullptr};
  int step = 1;
};

// dense[i] = strided element i; `total` elements. Complex when comp[1].
template <class R>
cudaError_t gather(const Strided &src, R *dense, long long total, cudaStream_t stream);
template <class R>
cudaError_t scatter(const R *dense, const Strided &dst, long long total, cudaStream_t stream);

}  // namespace gpufftw::engine
