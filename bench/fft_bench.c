/* fft_bench: times fftw(f)_execute on host arrays for a list of problems,
 * through whatever FFTW the process is given: the real FFTW, NVIDIA's
 * cuFFTW or gpufftw (by LD_PRELOAD), so each peer runs the very same code.
 *
 *   fft_bench [--alloc fftw|malloc|pinned|device] [--threads N] [--timelimit S]
 *             [--seconds S] [--flags estimate|measure|patient|exhaustive]
 *             [--modes auto,gpu,cpu] [--wisdom-in P] [--wisdom-out P]
 *             PROBLEM...
 *   PROBLEM   KIND-PREC-DIMS[-bBATCH], KIND c2c|r2c|c2r or an r2r kind (r2hc,
 *             hc2r, dht, redft00|01|10|11, rodft00|01|10|11: that kind along
 *             every dim, real arrays in and out), PREC f32|f64, DIMS n or
 *             n0xn1[xn2]; e.g. c2c-f32-4096-b4096, r2c-f32-512x512x512,
 *             redft10-f32-4096x4096
 *
 * --alloc pinned takes the arrays from cudaMallocHost (libcudart opened at
 * run time): what a user who changes code to help cuFFTW would do.
 * --alloc device takes them from cudaMalloc (the input written on the
 * host and copied there): a program whose data already lies on the GPU.
 * --flags is the planner flag (default measure, FFTW_MEASURE).
 * --timelimit S calls fftw(f)_set_timelimit(S): FFTW 3.3 then plans with
 * FFTW_ESTIMATE first, then with the flag given, and keeps the estimated
 * plan when measuring runs past about S seconds.
 * --wisdom-in P imports the real FFTW's wisdom from P.f32 and P.f64 (where
 * they exist) before planning, --wisdom-out P exports it there after the
 * last problem: a sweep timed again in a later process then times the
 * plans the first measured (bench/dispatch_sweep.sh's passes).
 *
 * Timing: two executes to warm up, then samples until at least 5 were taken
 * and --seconds (default 1) spent, at most 64; the median and the minimum
 * are reported. A sample is `inner` executes timed together, divided by
 * `inner`: 1 when one execute already takes >= 0.1 ms (every problem of
 * bench/run.sh), else the smallest power of two that makes a sample take
 * >= 0.1 ms, so that microsecond problems are timed well above the clock's
 * resolution and call overhead. With --modes or --precisions every plan of a
 * problem takes the largest of their sizes.
 *
 * Prints one line per problem (times in ms; medians and minima with six
 * significant digits, since a 16-point transform takes tens of ns):
 *   RESULT problem plan_ms median_ms min_ms reps where inner [| why]
 * where: gpufftw_plan_where(plan) ("cpu" or "gpu") when gpufftw is in the
 * process (found by dlsym), else "fftw"; why: gpufftw_plan_why(plan) where
 * gpufftw has it (free text, to the end of the line); reps: samples taken.
 * bench/table.py reads the fields up to reps only, so new fields go
 * after them.
 * A plan that comes back NULL prints "RESULT problem NULL-plan".
 * --modes (gpufftw preloaded): each problem planned once per gpufftw mode
 * listed (gpufftw_set_mode), each on arrays of its own, and timed
 * interleaved, a block of samples of each in turn (one execute untimed,
 * then BLOCK samples), each round in a random order;
 * lines read "RESULT MODE problem ...". A mode listed twice is planned and
 * timed twice, the second labelled MODE2 (cpu,cpu: how far the real FFTW
 * is from itself in the same run, the noise floor of a comparison).
 * --precisions fp32,fp16 (gpufftw preloaded): the same per precision
 * (gpufftw_set_precision, GPUFFTW_PRECISION=fp16), with
 * --modes too for every pair; lines read "RESULT [MODE] PRECISION problem ...". */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fftw3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_SAMPLES 64
#define BLOCK 2 /* samples a turn in --modes */
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

typedef enum { ALLOC_FFTW, ALLOC_MALLOC, ALLOC_PINNED, ALLOC_DEVICE } alloc_kind;
static alloc_kind alloc_mode = ALLOC_FFTW;
static int (*cuda_malloc_host)(void **, size_t);
static int (*cuda_free_host)(void *);
static int (*cuda_malloc)(void **, size_t);
static int (*cuda_free)(void *);
static int (*cuda_memcpy)(void *, const void *, size_t, int);
#define CUDA_MEMCPY_HOST_TO_DEVICE 1

static void *alloc_bytes(size_t bytes, int f32) {
  void *p = NULL;
  switch (alloc_mode) {
    case ALLOC_FFTW: p = f32 ? fftwf_malloc(bytes) : fftw_malloc(bytes); break;
    case ALLOC_MALLOC: p = malloc(bytes); break;
    case ALLOC_PINNED: if (cuda_malloc_host(&p, bytes) != 0) p = NULL; break;
    case ALLOC_DEVICE: if (cuda_malloc(&p, bytes) != 0) p = NULL; break;
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
    case ALLOC_DEVICE: cuda_free(p); break;
  }
}

typedef enum { C2C, R2C, C2R, R2R } transform;

typedef struct {
  char name[64];
  transform type;
  fftw_r2r_kind r2r_kind;
  int f32, rank, n[3], batch;
} problem;

static const char *const r2r_names[] = {"r2hc",    "hc2r",    "dht",     "redft00", "redft01", "redft10",
                                        "redft11", "rodft00", "rodft01", "rodft10", "rodft11"};
static const fftw_r2r_kind r2r_kinds[] = {FFTW_R2HC,    FFTW_HC2R,    FFTW_DHT,     FFTW_REDFT00,
                                          FFTW_REDFT01, FFTW_REDFT10, FFTW_REDFT11, FFTW_RODFT00,
                                          FFTW_RODFT01, FFTW_RODFT10, FFTW_RODFT11};

static int parse(const char *s, problem *p) {
  char kind[8], prec[4], rest[48];
  memset(p, 0, sizeof *p);
  snprintf(p->name, sizeof p->name, "%s", s);
  if (sscanf(s, "%7[a-z0-9]-%3[a-z0-9]-%47s", kind, prec, rest) != 3) return 0;
  p->type = !strcmp(kind, "c2c") ? C2C : !strcmp(kind, "r2c") ? R2C : !strcmp(kind, "c2r") ? C2R : R2R;
  if (p->type == R2R) {
    size_t k = 0;
    while (k < sizeof r2r_names / sizeof r2r_names[0] && strcmp(kind, r2r_names[k])) ++k;
    if (k == sizeof r2r_names / sizeof r2r_names[0]) return 0;
    p->r2r_kind = r2r_kinds[k];
  }
  p->f32 = strcmp(prec, "f32") == 0;
  if (!p->f32 && strcmp(prec, "f64")) return 0;
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
  const size_t bytes = reals * (f32 ? 4 : 8);
  /* Device arrays: written on the host, then copied there. */
  void *host = alloc_mode == ALLOC_DEVICE ? malloc(bytes) : a;
  if (!host) {
    fprintf(stderr, "fft_bench: cannot allocate %zu bytes\n", bytes);
    exit(1);
  }
  unsigned s = 2463534242u;
  for (size_t i = 0; i < reals; ++i) {
    s ^= s << 13, s ^= s >> 17, s ^= s << 5;
    double v = (s >> 8) / 16777216.0 - 0.5;
    if (f32) ((float *)host)[i] = (float)v; else ((double *)host)[i] = v;
  }
  if (host == a) return;
  if (cuda_memcpy(a, host, bytes, CUDA_MEMCPY_HOST_TO_DEVICE) != 0) {
    fprintf(stderr, "fft_bench: cudaMemcpy of %zu bytes to the device failed\n", bytes);
    exit(1);
  }
  free(host);
}

static void execute(void *plan, int f32, int times) {
  for (int i = 0; i < times; ++i) {
    if (f32) fftwf_execute((fftwf_plan)plan); else fftw_execute((fftw_plan)plan);
  }
}

static void *make_plan(const problem *p, void *in, void *out, int dist_in, int dist_out) {
  fftw_r2r_kind kinds[3] = {p->r2r_kind, p->r2r_kind, p->r2r_kind};
  switch (p->type) {
    case C2C:
      return p->f32 ? (void *)fftwf_plan_many_dft(p->rank, p->n, p->batch, in, NULL, 1, dist_in, out, NULL, 1,
                                                  dist_out, FFTW_FORWARD, plan_flags)
                    : (void *)fftw_plan_many_dft(p->rank, p->n, p->batch, in, NULL, 1, dist_in, out, NULL, 1, dist_out,
                                                 FFTW_FORWARD, plan_flags);
    case R2C:
      return p->f32 ? (void *)fftwf_plan_many_dft_r2c(p->rank, p->n, p->batch, in, NULL, 1, dist_in, out, NULL, 1,
                                                      dist_out, plan_flags)
                    : (void *)fftw_plan_many_dft_r2c(p->rank, p->n, p->batch, in, NULL, 1, dist_in, out, NULL, 1,
                                                     dist_out, plan_flags);
    case C2R:
      return p->f32 ? (void *)fftwf_plan_many_dft_c2r(p->rank, p->n, p->batch, in, NULL, 1, dist_in, out, NULL, 1,
                                                      dist_out, plan_flags)
                    : (void *)fftw_plan_many_dft_c2r(p->rank, p->n, p->batch, in, NULL, 1, dist_in, out, NULL, 1,
                                                     dist_out, plan_flags);
    case R2R:
      return p->f32 ? (void *)fftwf_plan_many_r2r(p->rank, p->n, p->batch, in, NULL, 1, dist_in, out, NULL, 1,
                                                  dist_out, kinds, plan_flags)
                    : (void *)fftw_plan_many_r2r(p->rank, p->n, p->batch, in, NULL, 1, dist_in, out, NULL, 1, dist_out,
                                                 kinds, plan_flags);
  }
  return NULL;
}

/* One plan of a problem and its timing state. */
typedef struct {
  const char *label;  /* printed after RESULT: "" alone, the mode interleaved */
  void *plan, *in, *out;
  double plan_ms, times[MAX_SAMPLES], spent;
  int reps, inner;
  char where[8], why[400];
} timed_plan;

static void plan_one(timed_plan *t, const problem *p, void *in, void *out, int dist_in, int dist_out) {
  const double t0 = now_ms();
  t->plan = make_plan(p, in, out, dist_in, dist_out);
  t->plan_ms = now_ms() - t0;
  if (!t->plan) return;
  snprintf(t->where, sizeof t->where, "%s", plan_where ? plan_where(t->plan) : "fftw");
  if (plan_why) {  // one line: newlines become spaces
    snprintf(t->why, sizeof t->why, " | %s", plan_why(t->plan));
    for (char *c = t->why; *c; ++c)
      if (*c == '\n' || *c == '\r') *c = ' ';
  }
}

/* Two executes to warm up, then `inner`: 1, or doubled until a sample
 * takes MIN_SAMPLE_MS. */
static void warm_up(timed_plan *t, int f32) {
  double warm_ms = 0;
  for (int warm = 0; warm < 2; ++warm) {
    const double t0 = now_ms();
    execute(t->plan, f32, 1);
    warm_ms = now_ms() - t0;
  }
  t->inner = 1;
  if (warm_ms < MIN_SAMPLE_MS) {
    for (t->inner = 2; t->inner < MAX_INNER; t->inner *= 2) {
      const double t0 = now_ms();
      execute(t->plan, f32, t->inner);
      if (now_ms() - t0 >= MIN_SAMPLE_MS) break;
    }
  }
}

static void sample(timed_plan *t, int f32) {
  const double t0 = now_ms();
  execute(t->plan, f32, t->inner);
  const double ms = now_ms() - t0;
  t->times[t->reps++] = ms / t->inner;
  t->spent += ms;
}

/* The round order's generator (a 32-bit LCG): the same sequence every run. */
static unsigned next_random(void) {
  static unsigned state = 12345u;
  state = state * 1664525u + 1013904223u;
  return state >> 8;
}

static int sampled_enough(const timed_plan *t, double seconds) {
  return t->reps >= MAX_SAMPLES || (t->reps >= 5 && t->spent >= 1e3 * seconds);
}

static void report(timed_plan *t, const problem *p) {
  if (!t->plan) {
    printf("RESULT%s %s NULL-plan\n", t->label, p->name);
    return;
  }
  qsort(t->times, (size_t)t->reps, sizeof t->times[0], cmp_double);
  printf("RESULT%s %s %.3f %.6g %.6g %d %s %d%s\n", t->label, p->name, t->plan_ms, t->times[t->reps / 2], t->times[0],
         t->reps, t->where, t->inner, t->why);
}

/* gpufftw's modes to plan each problem in, one plan per mode, timed
 * interleaved (--modes): one sample of each in turn, so that the host's
 * drift between processes and over the run falls on every mode alike. */
static const char *modes[4];
static int nmodes;
static void (*set_mode)(int);
static const char *precisions[2];
static int nprecisions;
static void (*set_precision)(int);
#define MAX_VARIANTS 8

static void run(const problem *p, double seconds) {
  /* points: the real (or c2c) side's; half: r2c's and c2r's complex side,
   * whose last dimension holds n/2+1. */
  size_t points = (size_t)p->batch, half = (size_t)p->batch;
  for (int i = 0; i < p->rank; ++i) {
    points *= (size_t)p->n[i];
    half *= (size_t)(i == p->rank - 1 ? p->n[i] / 2 + 1 : p->n[i]);
  }
  const size_t real = p->f32 ? 4 : 8;
  size_t in_bytes = points * real, out_bytes = points * real, in_points = points, out_points = points;
  if (p->type == C2C) in_bytes *= 2, out_bytes *= 2;
  if (p->type == R2C) out_bytes = half * 2 * real, out_points = half;
  if (p->type == C2R) in_bytes = half * 2 * real, in_points = half;
  int dist_in = (int)(in_points / p->batch), dist_out = (int)(out_points / p->batch);
  timed_plan t[MAX_VARIANTS];
  const int nm = nmodes ? nmodes : 1, np = nprecisions ? nprecisions : 1, n = nm * np;
  memset(t, 0, sizeof t);
  for (int k = 0; k < n; ++k) {
    static const char *const names[] = {"auto", "gpu", "cpu"}; /* gpufftw_mode's order */
    static char labels[MAX_VARIANTS][16];
    labels[k][0] = 0;
    if (nmodes) {
      int m = 0;
      while (strcmp(names[m], modes[k / np])) ++m;
      set_mode(m);
      int seen = 1; /* a mode listed again is labelled cpu2: the noise floor */
      for (int j = 0; j < k / np; ++j) seen += !strcmp(modes[j], modes[k / np]);
      if (seen > 1) snprintf(labels[k], sizeof labels[k], " %s%d", modes[k / np], seen);
      else snprintf(labels[k], sizeof labels[k], " %s", modes[k / np]);
    }
    if (nprecisions) {
      const char *prec = precisions[k % np];
      set_precision(strcmp(prec, "fp16") == 0); /* gpufftw_precision: FP32 0, FP16 1 */
      snprintf(labels[k] + strlen(labels[k]), sizeof labels[k] - strlen(labels[k]), " %s", prec);
    }
    t[k].label = labels[k];
    /* Arrays of its own: one the CPU has just written is slower for the
     * GPU's copies (dirty cache lines), which would charge one mode for
     * another's run. */
    t[k].in = alloc_bytes(in_bytes, p->f32);
    t[k].out = alloc_bytes(out_bytes, p->f32);
    plan_one(&t[k], p, t[k].in, t[k].out, dist_in, dist_out);
    fill(t[k].in, in_bytes / real, p->f32);
  }
  if (nmodes) set_mode(0);
  if (nprecisions) set_precision(0);
  for (int k = 0; k < n; ++k)
    if (t[k].plan) warm_up(&t[k], p->f32);
  /* One sample size for every plan of the problem: a plan timed one
   * execute at a time pays its threads' wake-up on each, where one timed
   * eight at a time pays it once, and one slow warm-up execute (a wake
   * from sleep) would set a plan to 1 while its peers got 8 (1.5-2x on
   * 10-40 us transforms at 16 threads). */
  int inner = 1;
  for (int k = 0; k < n; ++k)
    if (t[k].plan && t[k].inner > inner) inner = t[k].inner;
  for (int k = 0; k < n; ++k) t[k].inner = inner;
  /* A mode's turn is a block: one execute untimed, then BLOCK samples, so
   * that each is timed in its own steady state, as a program running it
   * alone would see it, not in what the mode before it left behind (its
   * arrays in the caches instead of this one's, threads asleep while the
   * GPU ran): c2c-f64-1024-b4096 (128 MB of arrays) ran on the real FFTW
   * in 1.47 ms timed alone while planning and 2.15 ms one sample per
   * turn. */
  /* Each round in an order of its own, drawn at random (fixed seed, so a
   * run repeats): what runs just before a sample changes its time, so a
   * fixed order gives each mode a bias of its own. Forwards then
   * backwards, the same real FFTW plan reads slower listed first than
   * listed third, and the mode listed last faster than the third
   * (docs/dispatch-sweep.md, how a sweep is timed). */
  int order[MAX_VARIANTS];
  for (int k = 0; k < n; ++k) order[k] = k;
  for (int more = 1; more;) {
    more = 0;
    for (int j = n - 1; j > 0; --j) {
      const int r = (int)(next_random() % (unsigned)(j + 1)), swap = order[j];
      order[j] = order[r];
      order[r] = swap;
    }
    for (int j = 0; j < n; ++j) {
      timed_plan *const tk = &t[order[j]];
      if (!tk->plan || sampled_enough(tk, seconds)) continue;
      more = 1;
      execute(tk->plan, p->f32, 1); /* untimed: the block's warm-up */
      for (int b = 0; b < BLOCK && !sampled_enough(tk, seconds); ++b) sample(tk, p->f32);
    }
  }
  for (int k = 0; k < n; ++k) {
    report(&t[k], p);
    if (t[k].plan) {
      if (p->f32) fftwf_destroy_plan(t[k].plan); else fftw_destroy_plan(t[k].plan);
    }
    free_bytes(t[k].in, p->f32);
    free_bytes(t[k].out, p->f32);
  }
  fflush(stdout);
}

/* The real FFTW's wisdom of both precisions from or to PREFIX.f32 and
 * PREFIX.f64; reading, a file that does not exist is no wisdom. */
static int wisdom_files(const char *prefix, int import) {
  char name[2][4096];
  for (int k = 0; k < 2; ++k) snprintf(name[k], sizeof name[k], "%s.%s", prefix, k ? "f64" : "f32");
  int ok[2];
  if (import) {
    for (int k = 0; k < 2; ++k) {
      FILE *f = fopen(name[k], "r");
      if (!f) { ok[k] = 1; continue; }
      fclose(f);
      ok[k] = k ? fftw_import_wisdom_from_filename(name[k]) : fftwf_import_wisdom_from_filename(name[k]);
    }
  } else {
    ok[0] = fftwf_export_wisdom_to_filename(name[0]);
    ok[1] = fftw_export_wisdom_to_filename(name[1]);
  }
  for (int k = 0; k < 2; ++k)
    if (!ok[k]) fprintf(stderr, "fft_bench: could not %s wisdom %s %s\n", import ? "import" : "export", import ? "from" : "to", name[k]);
  return ok[0] && ok[1];
}

int main(int argc, char **argv) {
  int threads = 1;
  double timelimit = -1, seconds = 1.0;
  const char *wisdom_in = NULL, *wisdom_out = NULL;
  int i = 1;
  for (; i < argc && argv[i][0] == '-' && argv[i][1] == '-'; i += 2) {
    if (i + 1 >= argc) break;
    if (!strcmp(argv[i], "--alloc"))
      alloc_mode = !strcmp(argv[i + 1], "malloc")   ? ALLOC_MALLOC
                   : !strcmp(argv[i + 1], "pinned") ? ALLOC_PINNED
                   : !strcmp(argv[i + 1], "device") ? ALLOC_DEVICE
                                                    : ALLOC_FFTW;
    else if (!strcmp(argv[i], "--threads")) threads = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--timelimit")) timelimit = atof(argv[i + 1]);
    else if (!strcmp(argv[i], "--wisdom-in")) wisdom_in = argv[i + 1];
    else if (!strcmp(argv[i], "--wisdom-out")) wisdom_out = argv[i + 1];
    else if (!strcmp(argv[i], "--seconds")) seconds = atof(argv[i + 1]);
    else if (!strcmp(argv[i], "--modes")) {
      static char list[64];
      snprintf(list, sizeof list, "%s", argv[i + 1]);
      for (char *m = strtok(list, ","); m && nmodes < 4; m = strtok(NULL, ",")) {
        if (strcmp(m, "auto") && strcmp(m, "gpu") && strcmp(m, "cpu")) {
          fprintf(stderr, "fft_bench: --modes takes auto, gpu and cpu, not %s\n", m);
          return 2;
        }
        modes[nmodes++] = m;
      }
    }
    else if (!strcmp(argv[i], "--precisions")) {
      static char list[64];
      snprintf(list, sizeof list, "%s", argv[i + 1]);
      for (char *m = strtok(list, ","); m && nprecisions < 2; m = strtok(NULL, ",")) {
        if (strcmp(m, "fp32") && strcmp(m, "fp16")) {
          fprintf(stderr, "fft_bench: --precisions takes fp32 and fp16, not %s\n", m);
          return 2;
        }
        precisions[nprecisions++] = m;
      }
    }
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
  set_mode = (void (*)(int))dlsym(RTLD_DEFAULT, "gpufftw_set_mode");
  if (nmodes && !set_mode) {
    fprintf(stderr, "fft_bench: --modes needs gpufftw in the process (LD_PRELOAD)\n");
    return 2;
  }
  set_precision = (void (*)(int))dlsym(RTLD_DEFAULT, "gpufftw_set_precision");
  if (nprecisions && !set_precision) {
    fprintf(stderr, "fft_bench: --precisions needs gpufftw in the process (LD_PRELOAD)\n");
    return 2;
  }
  if (alloc_mode == ALLOC_PINNED || alloc_mode == ALLOC_DEVICE) {
    void *rt = dlopen("libcudart.so.13", RTLD_NOW);
    if (!rt) rt = dlopen("libcudart.so", RTLD_NOW);
    if (!rt) { fprintf(stderr, "fft_bench: --alloc pinned and device need libcudart: %s\n", dlerror()); return 2; }
    cuda_malloc_host = (int (*)(void **, size_t))dlsym(rt, "cudaMallocHost");
    cuda_free_host = (int (*)(void *))dlsym(rt, "cudaFreeHost");
    cuda_malloc = (int (*)(void **, size_t))dlsym(rt, "cudaMalloc");
    cuda_free = (int (*)(void *))dlsym(rt, "cudaFree");
    cuda_memcpy = (int (*)(void *, const void *, size_t, int))dlsym(rt, "cudaMemcpy");
  }
  if (threads > 1) {
    fftw_init_threads(), fftwf_init_threads();
    fftw_plan_with_nthreads(threads), fftwf_plan_with_nthreads(threads);
  }
  if (timelimit > 0) fftw_set_timelimit(timelimit), fftwf_set_timelimit(timelimit);
  if (wisdom_in && !wisdom_files(wisdom_in, 1)) return 2;
  for (; i < argc; ++i) {
    problem p;
    if (!parse(argv[i], &p)) { fprintf(stderr, "fft_bench: bad problem %s\n", argv[i]); return 2; }
    run(&p, seconds);
  }
  if (wisdom_out && !wisdom_files(wisdom_out, 0)) return 2;
  return 0;
}
