// A transform's sides (side.h) as cuFFT sees them: its types and its
// advanced layout for them.
#pragma once

#include <cufft.h>

#include <string>

#include "engine/engine.h"
#include "engine/staging/side.h"

namespace gpufftw::engine {

cufftType cufft_type(Type t, Real r);
cufftType complex_type(Real r);

// cuFFT's advanced layout for one side: the last dim's stride, and
// nembed[i] = stride[i-1] / stride[i], which must cover the logical size.
bool embed(const Side &s, size_t first_dim, long long *nembed, long long *stride);

// Whether cuFFT can read and write the arrays as they lie; else why not.
bool direct_layout(const Geometry &g, std::string *why_not);

// Memory cuFFT can work on where it lies (device or managed), where a
// host array is staged.
inline bool on_device(Memory m) { return m == Memory::Device || m == Memory::Managed; }

}  // namespace gpufftw::engine
