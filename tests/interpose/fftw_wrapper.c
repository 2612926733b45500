/* A profiling tool as Darshan and GOTCHA-based tools build them: loaded
 * before FFTW (LD_PRELOAD), it defines FFTW's names, counts the calls and
 * hands each to the next definition, found with dlsym(RTLD_NEXT). It
 * makes no plan of its own. At exit it says what it counted. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fftw3.h>
#include <stdio.h>
#include <unistd.h>

static int plans, executes, destroys;

/* The next definition of `name` after this library, or exit. */
static void *next(const char *name) {
  void *f = dlsym(RTLD_NEXT, name);
  if (!f) {
    fprintf(stderr, "fftw_wrapper: no %s after the wrapper\n", name);
    _exit(3);
  }
  return f;
}

fftwf_plan fftwf_plan_dft_1d(int n, fftwf_complex *in, fftwf_complex *out, int sign, unsigned flags) {
  ++plans;
  fftwf_plan (*f)(int, fftwf_complex *, fftwf_complex *, int, unsigned) =
      (fftwf_plan (*)(int, fftwf_complex *, fftwf_complex *, int, unsigned))next("fftwf_plan_dft_1d");
  return f(n, in, out, sign, flags);
}

void fftwf_execute(const fftwf_plan p) {
  ++executes;
  ((void (*)(const fftwf_plan))next("fftwf_execute"))(p);
}

void fftwf_destroy_plan(fftwf_plan p) {
  ++destroys;
  ((void (*)(fftwf_plan))next("fftwf_destroy_plan"))(p);
}

__attribute__((destructor)) static void say(void) {
  fprintf(stderr, "fftw_wrapper: %d plans, %d executes, %d destroys\n", plans, executes, destroys);
}
