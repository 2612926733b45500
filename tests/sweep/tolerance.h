// Accuracy bar of the sweep: relative L2 error
//   ||out - ref||_2 / ||ref||_2  <=  c * eps * sqrt(log2 N)
// over all elements of a case (every howmany transform together), where eps
// is FLT_EPSILON or DBL_EPSILON and N the total size of one transform
// (product of the n's; log2 N is taken as at least 1 so that tiny transforms
// whose twiddles are irrational, e.g. REDFT11 of n=1, get a bar above 0).
#ifndef GPUFFTW_TESTS_SWEEP_TOLERANCE_H
#define GPUFFTW_TESTS_SWEEP_TOLERANCE_H

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace sweep {

// c: chosen so that the real FFTW 3.3.10 passes with a wide margin. Over
// ~400 full-sweep runs (different layout seeds, fresh random inputs; about
// 250,000 transforms per precision) the largest ratio
// error / (eps * sqrt(log2 N)) seen was 1.08 (f32) and 1.17 (f64), typically
// 0.6-0.9 per run; the worst cases are tiny r2r transforms (N <= 5).
constexpr double kToleranceC = 5.0;

inline double error_scale(double eps, std::ptrdiff_t n) {
  const double l = n > 1 ? std::log2(static_cast<double>(n)) : 1.0;
  return eps * std::sqrt(std::max(1.0, l));
}

inline double tolerance(double eps, std::ptrdiff_t n) {
  return kToleranceC * error_scale(eps, n);
}

}  // namespace sweep

#endif  // GPUFFTW_TESTS_SWEEP_TOLERANCE_H
