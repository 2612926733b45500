/* A plug-in host: loads fftw_plugin with dlopen and runs it.
 *
 *   plugin_host PLUGIN local|deepbind [mixed]
 *
 * local: RTLD_LOCAL; the plug-in's FFTW calls go wherever the process binds
 * them. deepbind: RTLD_DEEPBIND; they bind to the plug-in's own FFTW first.
 * mixed: the plug-in plans with its own FFTW, and the host executes and
 * destroys that plan through the FFTW functions dlsym finds on the plug-in's
 * handle: a program's mix of two FFTWs' entries. This host links FFTW only
 * where built so (plugin_host_linked), which puts FFTW in the process's
 * global scope before the plug-in comes. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fftw3.h>
#include <stdio.h>
#include <string.h>

#include "dft_check.h"

#ifdef LINKS_FFTW
/* Something of FFTW's used, so that the link keeps the library. */
static const char *const linked_version = fftwf_version;
#endif

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: plugin_host PLUGIN local|deepbind [mixed]\n");
    return 2;
  }
#ifdef LINKS_FFTW
  printf("host links %s\n", linked_version);
#endif
  const int mode = RTLD_NOW | (!strcmp(argv[2], "deepbind") ? RTLD_DEEPBIND : RTLD_LOCAL);
  void *h = dlopen(argv[1], mode);
  if (!h) {
    fprintf(stderr, "plugin_host: dlopen %s: %s\n", argv[1], dlerror());
    return 1;
  }
  const int n = 384;
  if (argc < 4) {
    int (*roundtrip)(int) = (int (*)(int))dlsym(h, "plugin_roundtrip");
    return roundtrip ? roundtrip(n) : 1;
  }
  fftwf_plan (*plan)(int, fftwf_complex *) = (fftwf_plan(*)(int, fftwf_complex *))dlsym(h, "plugin_plan");
  void (*execute)(fftwf_plan) = (void (*)(fftwf_plan))dlsym(h, "fftwf_execute");
  void (*destroy)(fftwf_plan) = (void (*)(fftwf_plan))dlsym(h, "fftwf_destroy_plan");
  double (*cost)(fftwf_plan) = (double (*)(fftwf_plan))dlsym(h, "fftwf_estimate_cost");
  if (!plan || !execute || !destroy || !cost) {
    fprintf(stderr, "plugin_host: %s\n", dlerror());
    return 1;
  }
  static fftwf_complex a[384];
  fftwf_plan p = plan(n, a);
  if (!p) return 1;
  dft_fill(&a[0][0], n);
  execute(p);
  const double err = dft_error(&a[0][0], n, FFTW_FORWARD);
  printf("mixed: err %.2g, estimated cost %s\n", err, cost(p) > 0 ? "positive" : "zero");
  destroy(p);
  return !(err < 1e-5);
}
