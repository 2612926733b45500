/* The check of the hazard programs that transform a unit impulse: whatever
 * the way FFTW was reached, every element of the result must be 1. */
#ifndef GPUFFTW_TESTS_HAZARDS_IMPULSE_H
#define GPUFFTW_TESTS_HAZARDS_IMPULSE_H

#include <fftw3.h>
#include <math.h>

/* Runs the in-place plan p on a unit impulse in a (n complex doubles):
 * 0 where the transform is all ones, 5 (the programs' status for a wrong
 * element) where not. */
static inline int impulse_status(fftw_plan p, fftw_complex *a, int n) {
  for (int i = 0; i < n; ++i) a[i][0] = a[i][1] = 0;
  a[0][0] = 1;
  fftw_execute(p);
  for (int i = 0; i < n; ++i)
    if (fabs(a[i][0] - 1) > 1e-9 || fabs(a[i][1]) > 1e-9) return 5;
  return 0;
}

#endif
