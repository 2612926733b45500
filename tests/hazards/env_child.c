/* The program each row of tests/hazards/env_test.cc runs with one bad
 * GPUFFTW_* value: it asks for pinned memory, plans, executes and checks
 * one c2c f64 transform (an impulse at 1, whose spectrum is e^{-2 pi i k/n}),
 * and exits 0 only where the result is right. */
#include <fftw3.h>
#include <math.h>
#include <stdio.h>

int main(void) {
  const int n = 8192; /* past the size kept on the CPU without asking the GPU or the store */
  fftw_complex *in = fftw_alloc_complex(2 << 20), *out = fftw_alloc_complex(n);
  if (!in || !out) return 2;
  fftw_plan p = fftw_plan_dft_1d(n, in, out, FFTW_FORWARD, FFTW_ESTIMATE);
  if (!p) return 3;
  for (int i = 0; i < n; ++i) in[i][0] = in[i][1] = 0;
  in[1][0] = 1;
  fftw_execute(p);
  double err = 0;
  for (int k = 0; k < n; ++k) {
    const double a = -2 * M_PI * k / n;
    err = fmax(err, fmax(fabs(out[k][0] - cos(a)), fabs(out[k][1] - sin(a))));
  }
  fftw_destroy_plan(p);
  fftw_free(in);
  fftw_free(out);
  if (err > 1e-9) {
    printf("wrong result: largest error %g\n", err);
    return 1;
  }
  return 0;
}
