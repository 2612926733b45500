// The four-step method's middle step, on the device: for one GPU's
// four-step (engine/four_step) and the 1-D split over several
// (engine/multi/line_split.cc).
#pragma once

#include <cuda_runtime_api.h>

namespace gpufftw::engine {

// dst[c][r] = src[r][c] * W_n^((col0 + c) * r), W_n = exp(sign * 2 pi i / n),
// for the `rows` x `cols` complex elements of src (row-major, R's pairs)
// into the `cols` x `rows` of dst. The twiddle is computed in double, its
// angle reduced exactly in integers first, whatever R is.
template <class R>
cudaError_t twiddle_transpose(const R *src, R *dst, long long rows, long long cols, long long col0, long long n,
                              int sign, cudaStream_t stream);

}  // namespace gpufftw::engine
