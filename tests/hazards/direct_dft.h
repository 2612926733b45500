// A direct DFT in long double: the reference the hazard tests compare with,
// independent of any FFT library.
#pragma once

#include <cmath>
#include <complex>
#include <random>
#include <vector>

namespace gpufftw_test {

using cld = std::complex<long double>;

inline std::vector<cld> direct_dft(const std::vector<cld> &x, int sign) {
  const size_t n = x.size();
  std::vector<cld> y(n);
  const long double pi = std::acos(-1.0L);
  for (size_t k = 0; k < n; ++k)
    for (size_t j = 0; j < n; ++j) y[k] += x[j] * std::polar(1.0L, sign * 2 * pi * ((j * k) % n) / n);
  return y;
}

// Relative L2 error of `out` (n interleaved complex of type T) against ref.
template <class T>
double rel_error(const T *out, const std::vector<cld> &ref) {
  long double num = 0, den = 0;
  for (size_t i = 0; i < ref.size(); ++i) {
    num += std::norm(cld(out[2 * i], out[2 * i + 1]) - ref[i]);
    den += std::norm(ref[i]);
  }
  return static_cast<double>(std::sqrt(num / den));
}

// Uniform in [-0.5, 0.5), fresh for every call.
template <class T>
std::vector<cld> random_fill(T *interleaved, size_t n) {
  static std::mt19937_64 rng{std::random_device{}()};
  std::uniform_real_distribution<double> u(-0.5, 0.5);
  std::vector<cld> x(n);
  for (size_t i = 0; i < n; ++i) {
    interleaved[2 * i] = static_cast<T>(u(rng));
    interleaved[2 * i + 1] = static_cast<T>(u(rng));
    x[i] = cld(interleaved[2 * i], interleaved[2 * i + 1]);
  }
  return x;
}

}  // namespace gpufftw_test
