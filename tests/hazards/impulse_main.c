/* An unchanged FFTW program: the transform of a unit impulse, N complex
 * doubles (argv[1], 64 where absent), planned with FFTW_MEASURE where
 * argv[2] is "measure" and FFTW_ESTIMATE otherwise. Every element must be
 * 1. Exit status: 0 right, 3 fftw_malloc gave NULL, 4 the plan is NULL,
 * 5 a wrong element; as FFTW itself does, an abort where FFTW's own
 * allocation fails. */
#include <fftw3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impulse.h"

int main(int argc, char **argv) {
  const int n = argc > 1 ? atoi(argv[1]) : 64;
  const unsigned flags = argc > 2 && strcmp(argv[2], "measure") == 0 ? FFTW_MEASURE : FFTW_ESTIMATE;
  fftw_complex *a = fftw_alloc_complex((size_t)n);
  if (!a) return 3;
  fftw_plan p = fftw_plan_dft_1d(n, a, a, FFTW_FORWARD, flags);
  if (!p) return 4;
  if (impulse_status(p, a, n)) return 5;
  fftw_destroy_plan(p);
  fftw_free(a);
  printf("impulse: %d points right\n", n);
  return 0;
}
