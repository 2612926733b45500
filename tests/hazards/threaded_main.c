/* An unchanged FFTW program with threads: a 256 x 256 transform of a unit
 * impulse planned with 2 threads; every element must be 1. Exit status: 0
 * right, 3 fftw_malloc gave NULL, 4 the plan is NULL, 5 a wrong element,
 * 6 fftw_init_threads failed. */
#include <fftw3.h>
#include <stdio.h>

#include "impulse.h"

int main(void) {
  enum { kSide = 256, kN = kSide * kSide };
  if (!fftw_init_threads()) return 6;
  fftw_plan_with_nthreads(2);
  fftw_complex *a = fftw_alloc_complex(kN);
  if (!a) return 3;
  fftw_plan p = fftw_plan_dft_2d(kSide, kSide, a, a, FFTW_FORWARD, FFTW_ESTIMATE);
  if (!p) return 4;
  if (impulse_status(p, a, kN)) return 5;
  fftw_destroy_plan(p);
  fftw_free(a);
  fftw_cleanup_threads();
  printf("threaded: %d points right\n", kN);
  return 0;
}
