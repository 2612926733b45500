/* A program with FFTW linked in statically (libfftw3f.a): no FFTW call can
 * reach a preloaded library, and gpufftw must say so rather than nothing. */
#include <fftw3.h>
#include <stdio.h>

#include "linked_c2c.h"

int main(void) {
  const double err = linked_c2c_error(256, FFTW_FORWARD);
  if (err < 0) return 1;
  printf("static: err %.2g\n", err);
  return !(err < 1e-5);
}
