// One side (input or output) of a transform as the job sees it: its sizes
// and strides, loops first, then dims. Plain C++ with no CUDA, so that
// what a solver's suits asks of a geometry's layout builds and is tested
// without a GPU; cuFFT's view of a side is sides.h's.
#pragma once

#include <cstddef>
#include <vector>

#include "engine/engine.h"

namespace gpufftw::engine {

long long product(const std::vector<long long> &v, size_t from, size_t to);

struct Side {
  bool complex = false, split = false;
  std::vector<long long> n, stride;  // logical sizes; strides in the side's elements
  size_t elem = 0;                   // bytes per element of one array of the side
  long long count() const { return product(n, 0, n.size()); }
  long long min_offset() const;
  long long max_offset() const;
  // Row-major with nothing between its elements: each stride the product
  // of the sizes after it.
  bool dense() const;
};

Side make_side(const Geometry &g, bool output);

// Elements one transform spans on a side, behind its one loop (the direct
// path's strides are positive).
long long extent(const Side &s);

}  // namespace gpufftw::engine
