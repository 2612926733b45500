// A transform's geometry as the job sees it: each side's sizes and strides
// (loops first, then dims), and cuFFT's advanced layout for them.
#pragma once

#include <cufft.h>

#include <string>
#include <vector>

#include "engine/engine.h"

namespace gpufftw::engine {

long long product(const std::vector<long long> &v, size_t from, size_t to);

cufftType cufft_type(Type t, Real r);
cufftType complex_type(Real r);

// One side (input or output) of a transform, loops first then dims.
struct Side {
  bool complex = false, split = false;
  std::vector<long long> n, stride;  // logical sizes; strides in the side's elements
  size_t elem = 0;                   // bytes per element of one array of the side
  long long count() const { return product(n, 0, n.size()); }
  long long min_offset() const;
  long long max_offset() const;
};

Side make_side(const Geometry &g, bool output);

// cuFFT's advanced layout for one side: the last dim's stride, and
// nembed[i] = stride[i-1] / stride[i], which must cover the logical size.
bool embed(const Side &s, size_t first_dim, long long *nembed, long long *stride);

// Elements one transform spans on a side, behind its one loop (the direct
// path's strides are positive).
long long extent(const Side &s);

// Whether cuFFT can read and write the arrays as they lie; else why not.
bool direct_layout(const Geometry &g, std::string *why_not);

// Memory cuFFT can work on where it lies (device or managed), where a
// host array is staged.
inline bool on_device(Memory m) { return m == Memory::Device || m == Memory::Managed; }

}  // namespace gpufftw::engine
