// The two precisions for typed tests, named f32 / f64 in test names.
#ifndef GPUFFTW_TESTS_SWEEP_PRECISIONS_H
#define GPUFFTW_TESTS_SWEEP_PRECISIONS_H

#include <gtest/gtest.h>

#include <string>

#include "fftw_traits.h"

namespace sweep {

using Precisions = ::testing::Types<float, double>;

struct PrecisionNames {
  template <class T>
  static std::string GetName(int) {
    return FftwApi<T>::short_name;
  }
};

}  // namespace sweep

#endif  // GPUFFTW_TESTS_SWEEP_PRECISIONS_H
