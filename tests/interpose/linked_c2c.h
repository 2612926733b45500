/* One c2c through the FFTW the including program's calls bind to (linked,
 * not looked up): planned, run on dft_fill's signal, destroyed. What a
 * plug-in and a program with FFTW linked in statically both do. */
#ifndef GPUFFTW_TESTS_INTERPOSE_LINKED_C2C_H
#define GPUFFTW_TESTS_INTERPOSE_LINKED_C2C_H

#include <fftw3.h>

#include "dft_check.h"

/* The error against a direct DFT, or -1 where the plan is NULL. */
static inline double linked_c2c_error(int n, int sign) {
  fftwf_complex *a = fftwf_alloc_complex(n);
  fftwf_plan p = fftwf_plan_dft_1d(n, a, a, sign, FFTW_ESTIMATE);
  if (!p) return -1;
  dft_fill(&a[0][0], n);
  fftwf_execute(p);
  const double err = dft_error(&a[0][0], n, sign);
  fftwf_destroy_plan(p);
  fftwf_free(a);
  return err;
}

#endif
