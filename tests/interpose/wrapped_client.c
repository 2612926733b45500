/* A program linked to FFTW, run under a profiling tool that wraps its
 * FFTW calls (fftw_wrapper.c): the calls reach the tool, then FFTW. */
#include <fftw3.h>
#include <stdio.h>

#include "linked_c2c.h"

int main(void) {
  const double err = linked_c2c_error(256, FFTW_FORWARD);
  if (err < 0) return 1;
  printf("wrapped: err %.2g\n", err);
  return !(err < 1e-5);
}
