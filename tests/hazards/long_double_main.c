/* An unchanged FFTW program in long double (libfftw3l), which gpufftw does
 * not take: its calls stay on the real FFTW, whichever way gpufftw came in.
 * The transform of a unit impulse must give all ones. Exit status: 0
 * right, 4 a NULL plan, 5 a wrong element. */
#include <fftw3.h>
#include <math.h>
#include <stdio.h>

int main(void) {
  enum { kN = 1024 };
  fftwl_complex *a = fftwl_alloc_complex(kN);
  fftwl_plan p = fftwl_plan_dft_1d(kN, a, a, FFTW_FORWARD, FFTW_MEASURE);
  if (!p) return 4;
  for (int i = 0; i < kN; ++i) a[i][0] = a[i][1] = 0;
  a[0][0] = 1;
  fftwl_execute(p);
  for (int i = 0; i < kN; ++i)
    if (fabsl(a[i][0] - 1) > 1e-15L || fabsl(a[i][1]) > 1e-15L) return 5;
  fftwl_destroy_plan(p);
  fftwl_free(a);
  puts("long_double: right");
  return 0;
}
