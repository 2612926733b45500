/* fft_bench: times fftw(f)_execute on host arrays for a list of problems,
 * through whatever FFTW the process is given: the real FFTW, NVIDIA's
 * cuFFTW or gpufftw (by LD_PRELOAD), so each peer runs the very same code.
 *
 *   fft_bench [--alloc fftw|malloc|pinned] [--threads N] [--timelimit S]
 *             [--seconds S] [--flags estimate|measure|patient|exhaustive]
 *             PROBLEM...
 *   PROBLEM   KIND-PREC-DIMS[-bBATCH], KIND c2c|r2c, PREC f32|f64,
 *             DIMS n or n0xn1[xn2]; e.g. c2c-f32-4096-b4096, r2c-f32-512x512x512
 *
 * --alloc pinned takes the arrays from cudaMallocHost (libcudart opened at
 * run time): what a user who changes code to help cuFFTW would do.
 * --flags is the planner flag (default measure, FFTW_MEASURE).
 * --timelimit S calls fftw(f)_set_timelimit(S): FFTW 3.3 then plans with
 * FFTW_ESTIMATE first, then with the flag given, and keeps the estimated
 * plan when measuring runs past about S seconds.
 *
 * Timing: two executes to warm up, then samples until at least 5 were taken
 * and --seconds (default 1) spent, at most 64; the median and the minimum
 * are reported. A sample is `inner` executes timed together, divided by
 * `inner`: 1 when one execute already takes >= 0.1 ms (every problem of
 * bench/run.sh), else the smallest power of two that makes a sample take
 * >= 0.1 ms, so that microsecond problems are timed well above the clock's
 * resolution and call overhead.
 *
 * Prints one line per problem (times in ms; medians and minima with six
 * significant digits, since a 16-point transform takes tens of ns):
 *   RESULT problem plan_ms median_ms min_ms reps where inner [| why]
 * where: gpufftw_plan_where(plan) ("cpu" or "gpu") when gpufftw is in the
 * process (found by dlsym), else "fftw"; why: gpufftw_plan_why(plan) where
 * gpufftw has it (free text, to the end of the line); reps: samples taken.
 * The fields up to reps are those of earlier versions (bench/table.py
 * reads only them).
 * A plan that comes back NULL prints "RESULT problem NULL-plan".           */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fftw3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_SAMPLES 64
#define MIN_SAMPLE_MS 0.1
#define MAX_INNER (1 << 22)

static unsigned plan_flags = FFTW_MEASURE;
static const char *(*plan_where)(const void *), *(*plan_why)(const void *);

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return 1e3 * t.tv_sec + 1e-6 * t.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

typedef enum { ALLOC_FFTW, ALLOC_MALLOC, ALLOC_PINNED } alloc_kind;
static alloc_kind alloc_mode = ALLOC_FFTW;
static int (*cuda_malloc_host)(void **, size_t);
static int (*cuda_free_host)(void *);

static void *alloc_bytes(size_t bytes, int f32) {
  void *p = NULL;
  switch (alloc_mode) {
    case ALLOC_FFTW: p = f32 ? fftwf_malloc(bytes) : fftw_malloc(bytes); break;
    case ALLOC_MALLOC: p = malloc(bytes); break;
    case ALLOC_PINNED: if (cuda_malloc_host(&p, bytes) != 0) p = NULL; break;
  }
  if (!p) {
    fprintf(stderr, "fft_bench: cannot allocate %zu bytes\n", bytes);
    exit(1);
  }
  return p;
}

static void free_bytes(void *p, int f32) {
  switch (alloc_mode) {
    case ALLOC_FFTW: if (f32) fftwf_free(p); else fftw_free(p); break;
    case ALLOC_MALLOC: free(p); break;
    case ALLOC_PINNED: cuda_free_host(p); break;
  }
}

typedef struct {
  char name[64];
  int r2c, f32, rank, n[3], batch;
} problem;

static int parse(const char *s, problem *p) {
  char kind[4], prec[4], rest[48];
  memset(p, 0, sizeof *p);
  snprintf(p->name, sizeof p->name, "%s", s);
  if (sscanf(s, "%3[a-z0-9]-%3[a-z0-9]-%47s", kind, prec, rest) != 3) return 0;
  p->r2c = strcmp(kind, "r2c") == 0;
  p->f32 = strcmp(prec, "f32") == 0;
  if ((!p->r2c && strcmp(kind, "c2c")) || (!p->f32 && strcmp(prec, "f64"))) return 0;
  p->batch = 1;
  char *b = strstr(rest, "-b");
  if (b) {
    p->batch = atoi(b + 2);
    *b = 0;
  }
  for (char *tok = strtok(rest, "x"); tok && p->rank < 3; tok = strtok(NULL, "x")) p->n[p->rank++] = atoi(tok);
  return p->rank > 0 && p->batch > 0;
}

static void fill(void *a, size_t reals, int f32) {
  unsigned s = 2463534242u;
  for (size_t i = 0; i < reals; ++i) {
    s ^= s << 13, s ^= s >> 17, s ^= s << 5;
    double v = (s >> 8) / 16777216.0 - 0.5;
    if (f32) ((float *)a)[i] = (float)v; else ((double *)a)[i] = v;
  }
}

static void execute(void *plan, int f32, int times) {
  for (int i = 0; i < times; ++i) {
    if (f32) fftwf_execute((fftwf_plan)plan); else fftw_execute((fftw_plan)plan);
  }
}

static void run(const problem *p, double seconds) {
  size_t points = (size_t)p->batch, cpoints = (size_t)p->batch;
  for (int i = 0; i < p->rank; ++i) {
    points *= (size_t)p->n[i];
    cpoints *= (size_t)(i == p->rank - 1 && p->r2c ? p->n[i] / 2 + 1 : p->n[i]);
  }
  const size_t real = p->f32 ? 4 : 8;
  const size_t in_bytes = p->r2c ? points * real : points * 2 * real, out_bytes = cpoints * 2 * real;
  void *in = alloc_bytes(in_bytes, p->f32), *out = alloc_bytes(out_bytes, p->f32);
  int dist_in = (int)(p->r2c ? points / p->batch : points / p->batch), dist_out = (int)(cpoints / p->batch);
  double t0 = now_ms();
  void *plan;
  if (p->f32)
    plan = p->r2c ? (void *)fftwf_plan_many_dft_r2c(p->rank, p->n, p->batch, in, NULL, 1, dist_in, out, NULL, 1,
                                                    dist_out, plan_flags)
                  : (void *)fftwf_plan_many_dft(p->rank, p->n, p->batch, in, NULL, 1, dist_in, out, NULL, 1, dist_out,
                                                FFTW_FORWARD, plan_flags);
  else
    plan = p->r2c ? (void *)fftw_plan_many_dft_r2c(p->rank, p->n, p->batch, in, NULL, 1, dist_in, out, NULL, 1,
                                                   dist_out, plan_flags)
                  : (void *)fftw_plan_many_dft(p->rank, p->n, p->batch, in, NULL, 1, dist_in, out, NULL, 1, dist_out,
                                               FFTW_FORWARD, plan_flags);
  const double plan_ms = now_ms() - t0;
  if (!plan) {
    printf("RESULT %s NULL-plan\n", p->name);
    fflush(stdout);
    free_bytes(in, p->f32);
    free_bytes(out, p->f32);
    return;
  }
  const char *where = plan_where ? plan_where(plan) : "fftw";
  char why[160] = "";
  if (plan_why) {  // one line: newlines become spaces
    snprintf(why, sizeof why, " | %s", plan_why(plan));
    for (char *c = why; *c; ++c)
      if (*c == '\n' || *c == '\r') *c = ' ';
  }
  fill(in, in_bytes / real, p->f32);
  double times[MAX_SAMPLES];
  int reps = 0, inner = 1;
  double spent = 0, warm_ms = 0;
  for (int warm = 0; warm < 2; ++warm) {
    t0 = now_ms();
    execute(plan, p->f32, 1);
    warm_ms = now_ms() - t0;
  }
  if (warm_ms < MIN_SAMPLE_MS) {  // calibrate: double inner until a sample is long enough
    for (inner = 2; inner < MAX_INNER; inner *= 2) {
      t0 = now_ms();
      execute(plan, p->f32, inner);
      if (now_ms() - t0 >= MIN_SAMPLE_MS) break;
    }
  }
  while (reps < MAX_SAMPLES && (reps < 5 || spent < 1e3 * seconds)) {
    t0 = now_ms();
    execute(plan, p->f32, inner);
    const double t = now_ms() - t0;
    times[reps++] = t / inner;
    spent += t;
  }
  qsort(times, (size_t)reps, sizeof times[0], cmp_double);
  printf("RESULT %s %.3f %.6g %.6g %d %s %d%s\n", p->name, plan_ms, times[reps / 2], times[0], reps, where, inner,
         why);
  fflush(stdout);
  if (p->f32) fftwf_destroy_plan(plan); else fftw_destroy_plan(plan);
  free_bytes(in, p->f32);
  free_bytes(out, p->f32);
}

int main(int argc, char **argv) {
  int threads = 1;
  double timelimit = -1, seconds = 1.0;
  int i = 1;
  for (; i < argc && argv[i][0] == '-' && argv[i][1] == '-'; i += 2) {
    if (i + 1 >= argc) break;
    if (!strcmp(argv[i], "--alloc"))
      alloc_mode = !strcmp(argv[i + 1], "malloc") ? ALLOC_MALLOC : !strcmp(argv[i + 1], "pinned") ? ALLOC_PINNED : ALLOC_FFTW;
    else if (!strcmp(argv[i], "--threads")) threads = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--timelimit")) timelimit = atof(argv[i + 1]);
    else if (!strcmp(argv[i], "--seconds")) seconds = atof(argv[i + 1]);
    else if (!strcmp(argv[i], "--flags")) {
      const char *f = argv[i + 1];
      if (!strcmp(f, "estimate")) plan_flags = FFTW_ESTIMATE;
      else if (!strcmp(f, "measure")) plan_flags = FFTW_MEASURE;
      else if (!strcmp(f, "patient")) plan_flags = FFTW_PATIENT;
      else if (!strcmp(f, "exhaustive")) plan_flags = FFTW_EXHAUSTIVE;
      else { fprintf(stderr, "fft_bench: --flags estimate|measure|patient|exhaustive, not %s\n", f); return 2; }
    } else { fprintf(stderr, "fft_bench: unknown option %s\n", argv[i]); return 2; }
  }
  plan_where = (const char *(*)(const void *))dlsym(RTLD_DEFAULT, "gpufftw_plan_where");
  plan_why = (const char *(*)(const void *))dlsym(RTLD_DEFAULT, "gpufftw_plan_why");
  if (alloc_mode == ALLOC_PINNED) {
    void *rt = dlopen("libcudart.so.13", RTLD_NOW);
    if (!rt) rt = dlopen("libcudart.so", RTLD_NOW);
    if (!rt) { fprintf(stderr, "fft_bench: --alloc pinned needs libcudart: %s\n", dlerror()); return 2; }
    cuda_malloc_host = (int (*)(void **, size_t))dlsym(rt, "cudaMallocHost");
    cuda_free_host = (int (*)(void *))dlsym(rt, "cudaFreeHost");
  }
  if (threads > 1) {
    fftw_init_threads(), fftwf_init_threads();
    fftw_plan_with_nthreads(threads), fftwf_plan_with_nthreads(threads);
  }
  if (timelimit > 0) fftw_set_timelimit(timelimit), fftwf_set_timelimit(timelimit);
  for (; i < argc; ++i) {
    problem p;
    if (!parse(argv[i], &p)) { fprintf(stderr, "fft_bench: bad problem %s\n", argv[i]); return 2; }
    run(&p, seconds);
  }
  return 0;
}
