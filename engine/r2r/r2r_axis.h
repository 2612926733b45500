// One dimension of a real-to-real transform on a dense device array: the
// DFT each kind reduces to (r2r_kernels.cu has the formulas), planned on
// cuFFT for every line along that dimension at once. A multi-dimensional
// r2r is one such pass per dimension, each with its own kind, as FFTW
// defines it (the transform is separable).
#pragma once

#include <string>

#include "engine/cufft/plan_cache.h"
#include "engine/engine.h"
#include "engine/r2r/r2r_kernels.h"

namespace gpufftw::engine {

struct R2rAxis {
  R2rKind kind = R2rKind::R2HC;
  AxisShape shape;
  Type fft = Type::R2C;   // R2C, C2R or C2C
  long long length = 0;   // the DFT's n: n, 2(n-1), 2(n+1) or 2n; 1: none, a scale
  long long in_len = 0;   // elements of the DFT's input per line (r2r_pre's len)
  long long out_len = 0;  // and of its output (r2r_post's len)
  // Bytes of the two work buffers for all lines.
  size_t in_bytes(Real r) const;
  size_t out_bytes(Real r) const;
};

// The axis's DFT for `kind` over `shape`; false (with why) for REDFT00 of
// n < 2, which FFTW leaves undefined.
bool r2r_axis(R2rKind kind, const AxisShape &shape, R2rAxis *a, std::string *why);

}  // namespace gpufftw::engine
