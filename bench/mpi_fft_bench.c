/* mpi_fft_bench: times one distributed c2c or r2c FFT through FFTW's MPI
 * interface, with whatever FFTW MPI the process is given (the real one, or
 * gpufftw's by gpufftw-run / drop-in), so each side runs the same code.
 *
 *   mpirun -np N mpi_fft_bench [--threads T] [--flags estimate|measure]
 *                              [--seconds S] [--timelimit S] [--transposed-out] PROBLEM
 *   PROBLEM  c2c-f32-N0xN1xN2, c2c-f64-..., r2c-f32-..., r2c-f64-...; 2-D or 3-D
 *
 * Arrays from fftw(f)_alloc_complex (fftw_malloc: gpufftw hands out pinned
 * memory there; an r2c's input is FFTW's padded real array in one), out of
 * place, forward; T threads per rank
 * (fftw_plan_with_nthreads); --timelimit bounds the planner's time
 * (fftw(f)_set_timelimit: FFTW_MEASURE keeps the fastest plan it timed in
 * that time). Timing: two executes to warm up, then samples
 * until at least 5 were taken and S seconds (default 2) spent, at most 32;
 * a sample is one execute between two barriers, the slowest rank's time.
 * Rank 0 prints
 *   ALLOC problem alloc_ms
 *   RESULT problem np threads plan_ms median_ms min_ms reps where | why
 * plan_ms is the planner call's alone, timed from a barrier: the arrays are
 * allocated before it (alloc_ms), since a program pays fftw_malloc where it
 * allocates (gpufftw pins large arrays there, seconds for gigabytes).
 * where/why: gpufftw_plan_where/why of the plan where gpufftw is in the
 * process (dlsym), else "fftw". */
#define _GNU_SOURCE
#include <fftw3-mpi.h>

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

#define BENCH(X, R)                                                                                                 \
  static void X##bench_alloc(int r2c, int rnk, const ptrdiff_t *n, ptrdiff_t *count, void **in, void **out) {       \
    ptrdiff_t cn[3] = {n[0], n[1], n[2]}, ln0, s0, ln1, s1, alloc;                                                  \
    if (r2c) cn[rnk - 1] = n[rnk - 1] / 2 + 1;                                                                      \
    alloc = X##mpi_local_size_many_transposed(rnk, cn, 1, FFTW_MPI_DEFAULT_BLOCK, FFTW_MPI_DEFAULT_BLOCK,           \
                                              MPI_COMM_WORLD, &ln0, &s0, &ln1, &s1);                                \
    *in = X##alloc_complex((size_t)alloc), *out = X##alloc_complex((size_t)alloc), *count = alloc;                 \
  }                                                                                                                 \
  static void *X##bench_plan(int r2c, int rnk, const ptrdiff_t *n, void *a, void *b, unsigned flags) {              \
    if (r2c)                                                                                                        \
      return X##mpi_plan_many_dft_r2c(rnk, n, 1, FFTW_MPI_DEFAULT_BLOCK, FFTW_MPI_DEFAULT_BLOCK, (R *)a, b,        \
                                      MPI_COMM_WORLD, flags);                                                       \
    return X##mpi_plan_many_dft(rnk, n, 1, FFTW_MPI_DEFAULT_BLOCK, FFTW_MPI_DEFAULT_BLOCK, a, b, MPI_COMM_WORLD,    \
                                FFTW_FORWARD, flags);                                                               \
  }                                                                                                                 \
  static void X##bench_fill(void *p, ptrdiff_t count) {                                                                   \
    X##complex *a = p;                                                                                              \
    for (ptrdiff_t i = 0; i < count; ++i) a[i][0] = (R)((i * 7919) % 1000) / 1000 - 0.5f, a[i][1] = 0.25f;          \
  }

BENCH(fftw_, double)
BENCH(fftwf_, float)

int main(int argc, char **argv) {
  int me, np, threads = 1, i = 1;
  unsigned flags = FFTW_MEASURE;
  double seconds = 2, timelimit = -1; /* FFTW's FFTW_NO_TIMELIMIT */
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  for (; i < argc && !strncmp(argv[i], "--", 2); ++i) {
    if (!strcmp(argv[i], "--threads") && i + 1 < argc) threads = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--seconds") && i + 1 < argc) seconds = atof(argv[++i]);
    else if (!strcmp(argv[i], "--timelimit") && i + 1 < argc) timelimit = atof(argv[++i]);
    else if (!strcmp(argv[i], "--flags") && i + 1 < argc)
      flags = (flags & FFTW_MPI_TRANSPOSED_OUT) | (!strcmp(argv[++i], "estimate") ? FFTW_ESTIMATE : FFTW_MEASURE);
    else if (!strcmp(argv[i], "--transposed-out")) flags |= FFTW_MPI_TRANSPOSED_OUT;
    else {
      if (!me) fprintf(stderr, "mpi_fft_bench: unknown option %s\n", argv[i]);
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
  }
  char kind[4] = "", prec[4] = "";
  ptrdiff_t n[3] = {1, 1, 1};
  const int got = i < argc ? sscanf(argv[i], "%3[a-z0-9]-%3[f0-9]-%tdx%tdx%td", kind, prec, &n[0], &n[1], &n[2]) : 0;
  const int r2c = !strcmp(kind, "r2c");
  if (got < 4 || (!r2c && strcmp(kind, "c2c"))) {
    if (!me) fprintf(stderr, "usage: mpi_fft_bench [options] c2c|r2c-f32|f64-N0xN1[xN2]\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const int rnk = got - 2;
  const int f32 = !strcmp(prec, "f32");
  if (threads > 1) {
    if (f32) fftwf_init_threads(), fftwf_plan_with_nthreads(threads);
    else fftw_init_threads(), fftw_plan_with_nthreads(threads);
  }
  if (f32) fftwf_mpi_init(), fftwf_set_timelimit(timelimit);
  else fftw_mpi_init(), fftw_set_timelimit(timelimit);

  void *in, *out, *plan;
  ptrdiff_t count;
  double t0 = MPI_Wtime();
  if (f32) fftwf_bench_alloc(r2c, rnk, n, &count, &in, &out);
  else fftw_bench_alloc(r2c, rnk, n, &count, &in, &out);
  const double alloc_ms = (MPI_Wtime() - t0) * 1e3;
  if (!me) printf("ALLOC %s %.1f\n", argv[i], alloc_ms);
  /* The planner is collective: timed from when every rank has its arrays,
   * so that one rank's slower allocation is not read as another's planning. */
  MPI_Barrier(MPI_COMM_WORLD);
  t0 = MPI_Wtime();
  plan = f32 ? fftwf_bench_plan(r2c, rnk, n, in, out, flags) : fftw_bench_plan(r2c, rnk, n, in, out, flags);
  const double plan_ms = (MPI_Wtime() - t0) * 1e3;
  if (!plan) {
    if (!me) printf("RESULT %s NULL-plan\n", argv[i]);
    MPI_Finalize();
    return 1;
  }
  if (f32) fftwf_bench_fill(in, count);
  else fftw_bench_fill(in, count);

  double samples[32];
  int reps = 0;
  double spent = 0;
  for (int k = -2; k < 32; ++k) {
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    if (f32) fftwf_execute(plan);
    else fftw_execute(plan);
    double t = MPI_Wtime() - t0;
    MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (k < 0) continue;
    samples[reps++] = t * 1e3;
    spent += t;
    int more = reps < 5 || spent < seconds;
    MPI_Bcast(&more, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (!more) break;
  }
  qsort(samples, (size_t)reps, sizeof samples[0], cmp);
  const char *(*where)(const void *) = (const char *(*)(const void *))dlsym(RTLD_DEFAULT, "gpufftw_plan_where");
  const char *(*why)(const void *) = (const char *(*)(const void *))dlsym(RTLD_DEFAULT, "gpufftw_plan_why");
  if (!me)
    printf("RESULT %s np=%d threads=%d %.1f %.3f %.3f %d %s | %s\n", argv[i], np, threads, plan_ms,
           samples[reps / 2], samples[0], reps, where ? where(plan) : "fftw", why ? why(plan) : "");
  if (f32) fftwf_destroy_plan(plan), fftwf_free(in), fftwf_free(out);
  else fftw_destroy_plan(plan), fftw_free(in), fftw_free(out);
  MPI_Finalize();
  return 0;
}
