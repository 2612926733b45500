/* A program of a gpufftw user's own, built against an installed gpufftw
 * (tests/install_test.sh): once through pkg-config, once through
 * find_package(gpufftw). It uses the FFTW3 API (the real FFTW's <fftw3.h>)
 * and gpufftw's extension API, and checks one transform's answer. */
#include <fftw3.h>
#include <gpufftw/gpufftw.h>
#include <math.h>
#include <stdio.h>

int main(void) {
  enum { N = 256 };
  fftwf_complex *x = fftwf_alloc_complex(N), *y = fftwf_alloc_complex(N);
  fftwf_plan p = fftwf_plan_dft_1d(N, x, y, FFTW_FORWARD, FFTW_ESTIMATE);
  if (!p) {
    printf("consumer: no plan\n");
    return 1;
  }
  for (int i = 0; i < N; ++i) {  /* a tone in bin 5 */
    x[i][0] = (float)cos(2 * 3.14159265358979 * 5 * i / N);
    x[i][1] = (float)sin(2 * 3.14159265358979 * 5 * i / N);
  }
  fftwf_execute(p);
  double err = 0;
  for (int i = 0; i < N; ++i) {
    double want = i == 5 ? N : 0;
    err = fmax(err, fabs(y[i][0] - want) + fabs(y[i][1]));
  }
  printf("consumer: %s, plan on the %s (%s), max error %.2g\n", gpufftw_version(), gpufftw_plan_where(p),
         gpufftw_plan_why(p), err);
  fftwf_destroy_plan(p);
  fftwf_free(x);
  fftwf_free(y);
  return err < 1e-3 ? 0 : 1;
}
