/* A plug-in linked to FFTW (libfftw3f), loaded by plugin_host. */
#include <fftw3.h>
#include <stdio.h>

#include "linked_c2c.h"

/* Plans, executes and destroys a c2c of n points with the FFTW this
 * plug-in's calls bind to; 0 where the numbers are right. */
int plugin_roundtrip(int n) {
  const double err = linked_c2c_error(n, FFTW_BACKWARD);
  if (err < 0) return 1;
  printf("plug-in: err %.2g\n", err);
  return !(err < 1e-5);
}

/* A plan of the FFTW this plug-in binds to, for the host to run. */
fftwf_plan plugin_plan(int n, fftwf_complex *a) { return fftwf_plan_dft_1d(n, a, a, FFTW_FORWARD, FFTW_ESTIMATE); }
