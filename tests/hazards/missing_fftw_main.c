/* Run with GPUFFTW_FFTW_DIR pointing where there is no FFTW: plans must be
 * NULL, nothing may abort, the log must say what was searched, and the
 * NULL plan's executes are said once (CTest matches those lines). Run with
 * GPUFFTW_FFTW_DIR empty, as unset: the plan is made. */
#include <fftw3.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  fftw_complex *a = fftw_alloc_complex(16);
  fftw_plan p = fftw_plan_dft_1d(16, a, a, FFTW_FORWARD, FFTW_ESTIMATE);
  for (int i = 0; i < 3; ++i) fftw_execute(p);
  fftw_destroy_plan(p);
  fftw_forget_wisdom();
  char *w = fftw_export_wisdom_to_string();
  fftw_free(a);
  printf("plan %s, wisdom %s\n", p ? "made" : "NULL", w ? "exported" : "NULL");
  free(w);
  return 0;
}
