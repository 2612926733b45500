// fftw_malloc and friends. The memory is aligned for every SIMD width the
// real FFTW uses, so its plans take the fast path on these arrays.
#pragma once

#include <cstddef>

namespace gpufftw {

void *aligned_alloc_bytes(size_t bytes);
void aligned_free(void *p);
int alignment_of(const void *p);  // as the real FFTW's, when it is absent

}  // namespace gpufftw
