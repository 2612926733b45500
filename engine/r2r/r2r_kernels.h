// The O(n) kernels around cuFFT that turn one dimension's real-to-real
// transform into a DFT (r2r_axis.h says which DFT for which kind): one
// rearranges the data into the DFT's input, the other forms the r2r's
// outputs from the DFT's. Both work on a dense row-major real array seen
// as [outer][n][inner], the dimension in the middle.
#pragma once

#include <cuda_runtime_api.h>

#include "engine/engine.h"

namespace gpufftw::engine {

struct AxisShape {
  long long outer = 1, n = 1, inner = 1;
};

// work holds outer * inner transforms one after another, transform
// b = o * inner + i of the line x[o][.][i]; `len` elements each (reals
// for an r2c DFT's input or a c2r's output, complex numbers otherwise).
template <class R>
cudaError_t r2r_pre(R2rKind kind, const AxisShape &a, long long len, const R *x, R *work, cudaStream_t stream);
template <class R>
cudaError_t r2r_post(R2rKind kind, const AxisShape &a, long long len, const R *work, R *x, cudaStream_t stream);

// x[i] *= factor for i < count: a dimension of size 1 (its DFT is the
// identity, and REDFT10/RODFT10 double).
template <class R>
cudaError_t r2r_scale(R *x, long long count, R factor, cudaStream_t stream);

}  // namespace gpufftw::engine
