// The CUDA vector type that holds one complex number of a real type, for
// the engine's kernels.
#pragma once

#include <vector_types.h>

namespace gpufftw::engine {

template <class R>
struct ComplexOf;
template <>
struct ComplexOf<float> {
  using type = float2;
};
template <>
struct ComplexOf<double> {
  using type = double2;
};
template <class R>
using complex_t = typename ComplexOf<R>::type;

}  // namespace gpufftw::engine
