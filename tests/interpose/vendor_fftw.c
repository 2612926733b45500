/* Another vendor's FFTW3 interface (as cuFFTW's, MKL's, ArmPL's): FFTW's
 * public names over an engine of its own (here a direct DFT), without
 * FFTW's internals (no fftwf_mkplanner). Built as libfftw3f.so.3 in a
 * folder of its own, for a plug-in linked to it. Only what the plug-in
 * and its host call. */
#include <fftw3.h>
#include <math.h>
#include <stdlib.h>

struct fftwf_plan_s {
  int n, sign;
  fftwf_complex *in, *out;
};

fftwf_plan fftwf_plan_dft_1d(int n, fftwf_complex *in, fftwf_complex *out, int sign, unsigned flags) {
  (void)flags;
  fftwf_plan p = malloc(sizeof *p);
  if (p) *p = (struct fftwf_plan_s){n, sign, in, out};
  return p;
}

void fftwf_execute(const fftwf_plan p) {
  const double pi = acos(-1.0);
  double *t = malloc(2 * sizeof(double) * (size_t)p->n);
  if (!t) abort();
  for (int k = 0; k < p->n; ++k) {
    double re = 0, im = 0;
    for (int j = 0; j < p->n; ++j) {
      const double a = p->sign * 2 * pi * (double)(((long long)j * k) % p->n) / p->n;
      re += p->in[j][0] * cos(a) - p->in[j][1] * sin(a);
      im += p->in[j][0] * sin(a) + p->in[j][1] * cos(a);
    }
    t[2 * k] = re, t[2 * k + 1] = im;
  }
  for (int k = 0; k < p->n; ++k) p->out[k][0] = (float)t[2 * k], p->out[k][1] = (float)t[2 * k + 1];
  free(t);
}

void fftwf_destroy_plan(fftwf_plan p) { free(p); }
double fftwf_estimate_cost(const fftwf_plan p) { return 5.0 * p->n * p->n; }
