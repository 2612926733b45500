/* A program with FFTW linked in statically (libfftw3f.a): no FFTW call can
 * reach a preloaded library, and gpufftw must say so rather than nothing. */
#include <fftw3.h>
#include <stdio.h>

#include "dft_check.h"

int main(void) {
  const int n = 256;
  fftwf_complex *a = fftwf_alloc_complex(n);
  fftwf_plan p = fftwf_plan_dft_1d(n, a, a, FFTW_FORWARD, FFTW_ESTIMATE);
  dft_fill(&a[0][0], n);
  fftwf_execute(p);
  const double err = dft_error(&a[0][0], n, FFTW_FORWARD);
  fftwf_destroy_plan(p);
  fftwf_free(a);
  printf("static: err %.2g\n", err);
  return !(err < 1e-5);
}
