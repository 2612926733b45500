/* A plug-in linked to FFTW (libfftw3f), loaded by plugin_host. */
#include <fftw3.h>
#include <stdio.h>

#include "dft_check.h"

/* Plans, executes and destroys a c2c of n points with the FFTW this
 * plug-in's calls bind to; 0 where the numbers are right. */
int plugin_roundtrip(int n) {
  fftwf_complex *a = fftwf_alloc_complex(n);
  fftwf_plan p = fftwf_plan_dft_1d(n, a, a, FFTW_BACKWARD, FFTW_ESTIMATE);
  if (!p) return 1;
  dft_fill(&a[0][0], n);
  fftwf_execute(p);
  const double err = dft_error(&a[0][0], n, FFTW_BACKWARD);
  fftwf_destroy_plan(p);
  fftwf_free(a);
  printf("plug-in: err %.2g\n", err);
  return !(err < 1e-5);
}

/* A plan of the FFTW this plug-in binds to, for the host to run. */
fftwf_plan plugin_plan(int n, fftwf_complex *a) { return fftwf_plan_dft_1d(n, a, a, FFTW_FORWARD, FFTW_ESTIMATE); }
