// The accuracy bar of our kernels' GPU tests: the sweep's c * eps *
// sqrt(log2 N) (tests/sweep/tolerance.h), with eps rounded down to
// 1.19e-7 and 2.22e-16. Their transforms have N >= 2.
#pragma once

#include <cmath>

#include "tests/sweep/tolerance.h"

template <class T>
double kernel_tolerance(long long n) {
  const double eps = sizeof(T) == 4 ? 1.19e-7 : 2.22e-16;
  return sweep::kToleranceC * eps * std::sqrt(std::log2(static_cast<double>(n)));
}
