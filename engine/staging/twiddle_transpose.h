// The four-step method's transposes, on the device: for one GPU's
// four-step (engine/four_step) and the 1-D split over several
// (engine/multi/line_split.cc).
#pragma once

#include <cuda_runtime_api.h>

namespace gpufftw::engine {

// dst[c * ld + r] = src[r * cols + c] for the `rows` x `cols` complex
// elements of src (row-major, R's pairs); ld >= rows.
template <class R>
cudaError_t transpose(const R *src, R *dst, long long rows, long long cols, long long ld, cudaStream_t stream);

// dst[c][r] = src[r][c] * W_n^((row0 + r) * (col0 + c)), W_n =
// exp(sign * 2 pi i / n), for the `rows` x `cols` complex elements of src
// into the `cols` x `rows` of dst, every exponent under n. The twiddle is
// computed in double, its angle reduced exactly in integers first,
// whatever R is.
template <class R>
cudaError_t twiddle_transpose(const R *src, R *dst, long long rows, long long cols, long long row0, long long col0,
                              long long n, int sign, cudaStream_t stream);

}  // namespace gpufftw::engine
