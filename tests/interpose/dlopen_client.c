/* A program that opens FFTW itself, as Python's ctypes, Julia and plug-in
 * hosts do: dlopen, then dlsym (or dlvsym) by handle. Links no FFTW.
 *
 *   dlopen_client FLAGS LIBRARY [dlvsym|threads|names]
 *
 * FLAGS: dlopen's flags joined by commas (now, lazy, local, global,
 * deepbind). Plans, executes and destroys a 512-point c2c through the
 * functions dlsym finds, checks it against a direct DFT, and prints the
 * file that defines the planner it was given. Exit status 0 only where the
 * numbers are right. threads: two threads at once, each its own dlopen.
 * dlvsym: first checks dlvsym as the C library answers it: FFTW's
 * libraries carry no symbol versions, so no versioned FFTW name is found,
 * while a versioned C library name is. names: first prints what dlsym
 * answers for names that are not FFTW's and for RTLD_NEXT, which the C
 * library resolves from the caller's place in the lookup order. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fftw3.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "dft_check.h"

typedef fftwf_plan (*plan_fn)(int, fftwf_complex *, fftwf_complex *, int, unsigned);
typedef void (*plan_use_fn)(fftwf_plan);
typedef void *(*malloc_fn)(size_t);
typedef void (*free_fn)(void *);

static int flags = 0, threads = 0;
static const char *library;

static void *find(void *h, const char *name) {
  void *f = dlsym(h, name);
  if (!f) fprintf(stderr, "dlopen_client: %s: %s\n", name, dlerror());
  return f;
}

static int check_dlvsym(void) {
  void *h = dlopen(library, flags), *m = dlopen("libm.so.6", RTLD_NOW);
  if (!h || !m) return 1;
  void *fftw = dlvsym(h, "fftwf_execute", "FFTW_3");
  char why[512];
  const char *error = fftw ? NULL : dlerror();
  snprintf(why, sizeof why, "%s", error ? error : "no error");
  void *cosine = dlvsym(m, "cos", "GLIBC_2.2.5");
  printf("dlvsym: versioned FFTW name %s (%s), versioned C library name %s\n", fftw ? "found" : "not found",
         why, cosine ? "found" : "not found");
  return fftw != NULL || cosine == NULL;
}

static int check_names(void) {
  void *m = dlopen("libm.so.6", RTLD_NOW);
  double (*cosine)(double) = m ? (double (*)(double))dlsym(m, "cos") : NULL;
  size_t (*length)(const char *) = (size_t(*)(const char *))dlsym(RTLD_DEFAULT, "strlen");
  void *next = dlsym(RTLD_NEXT, "gpufftw_version");
  Dl_info info;
  printf("names: cos(0) %g, strlen %zu, RTLD_NEXT gpufftw_version %s\n", cosine ? cosine(0) : -1.0,
         length ? length("four") : 0, next && dladdr(next, &info) ? info.dli_fname : "not found");
  return !cosine || !length;
}

/* One plan, execute and destroy through `library`; 0 where right. */
static int roundtrip(const char *who) {
  void *h = dlopen(library, flags);
  if (!h) {
    fprintf(stderr, "dlopen_client: dlopen %s: %s\n", library, dlerror());
    return 1;
  }
  plan_fn plan = (plan_fn)find(h, "fftwf_plan_dft_1d");
  plan_use_fn execute = (plan_use_fn)find(h, "fftwf_execute"), destroy = (plan_use_fn)find(h, "fftwf_destroy_plan");
  malloc_fn alloc = (malloc_fn)find(h, "fftwf_malloc");
  free_fn release = (free_fn)find(h, "fftwf_free");
  void (*cleanup)(void) = (void (*)(void))find(h, "fftwf_cleanup");
  if (!plan || !execute || !destroy || !alloc || !release || !cleanup) return 1;
  const int n = 512;
  float *a = alloc(sizeof(fftwf_complex) * n);
  fftwf_plan p = plan(n, (fftwf_complex *)a, (fftwf_complex *)a, FFTW_FORWARD, FFTW_ESTIMATE);
  if (!p) {
    fprintf(stderr, "dlopen_client: %s: NULL plan\n", who);
    return 1;
  }
  dft_fill(a, n);
  execute(p);
  const double err = dft_error(a, n, FFTW_FORWARD);
  destroy(p);
  release(a);
  Dl_info info;
  const char *from = dladdr((void *)plan, &info) && info.dli_fname ? info.dli_fname : "?";
  printf("%s: err %.2g, planner from %s\n", who, err, from);
  /* A tidy program's end: nothing of the planner's is left when the
   * library it opened is closed (the threads' plans are destroyed). */
  if (!threads) cleanup();
  dlclose(h);
  return !(err < 1e-5);
}

static void *thread_main(void *name) { return (void *)(long)roundtrip(name); }

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: dlopen_client FLAGS LIBRARY [dlvsym|threads|names]\n");
    return 2;
  }
  for (char *f = strtok(argv[1], ","); f; f = strtok(NULL, ",")) {
    if (!strcmp(f, "now")) flags |= RTLD_NOW;
    else if (!strcmp(f, "lazy")) flags |= RTLD_LAZY;
    else if (!strcmp(f, "local")) flags |= RTLD_LOCAL;
    else if (!strcmp(f, "global")) flags |= RTLD_GLOBAL;
    else if (!strcmp(f, "deepbind")) flags |= RTLD_DEEPBIND;
    else {
      fprintf(stderr, "dlopen_client: %s is no dlopen flag\n", f);
      return 2;
    }
  }
  library = argv[2];
  const char *mode = argc > 3 ? argv[3] : "";
  if (!strcmp(mode, "dlvsym") && check_dlvsym()) return 1;
  if (!strcmp(mode, "names") && check_names()) return 1;
  threads = !strcmp(mode, "threads");
  if (!threads) return roundtrip("main");
  /* Two threads resolving and planning at once, each with its own dlopen. */
  pthread_t t[2];
  void *rc[2];
  pthread_create(&t[0], NULL, thread_main, "thread 1");
  pthread_create(&t[1], NULL, thread_main, "thread 2");
  pthread_join(t[0], &rc[0]);
  pthread_join(t[1], &rc[1]);
  return rc[0] || rc[1];
}
