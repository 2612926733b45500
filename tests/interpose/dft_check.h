/* The check every interposition client makes: a c2c of n points against a
 * direct DFT in long double, on data of its own. Header-only C, so that each
 * client is one file and links nothing but what it tests. */
#ifndef GPUFFTW_TESTS_INTERPOSE_DFT_CHECK_H
#define GPUFFTW_TESTS_INTERPOSE_DFT_CHECK_H

#include <math.h>

/* x[j] = a smooth, non-symmetric signal: every bin is non-zero. */
static void dft_fill(float *x, int n) {
  for (int j = 0; j < n; ++j) {
    x[2 * j] = (float)(cos(0.37 * j) + 0.01 * j);
    x[2 * j + 1] = (float)(sin(0.11 * j * j / n) - 0.5);
  }
}

/* The relative L2 error of y (interleaved) as the transform of
 * dft_fill's signal with FFTW's sign convention. */
static double dft_error(const float *y, int n, int sign) {
  const long double pi = acosl(-1.0L);
  long double num = 0, den = 0;
  for (int k = 0; k < n; ++k) {
    long double re = 0, im = 0;
    for (int j = 0; j < n; ++j) {
      const long double xr = (float)(cos(0.37 * j) + 0.01 * j), xi = (float)(sin(0.11 * j * j / n) - 0.5);
      const long double a = sign * 2 * pi * (long double)(((long long)j * k) % n) / n;
      re += xr * cosl(a) - xi * sinl(a);
      im += xr * sinl(a) + xi * cosl(a);
    }
    num += (y[2 * k] - re) * (y[2 * k] - re) + (y[2 * k + 1] - im) * (y[2 * k + 1] - im);
    den += re * re + im * im;
  }
  return (double)sqrtl(num / den);
}

#endif
