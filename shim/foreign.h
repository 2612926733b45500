/* Plans made by another FFTW in the process (the real FFTW MPI, reached
 * through libgpufftw_mpi), carried in gpufftw's own plan handle, so that
 * fftw_execute, fftw_destroy_plan, fftw_print_plan, fftw_flops, fftw_cost of
 * gpufftw serve them. A C ABI between libgpufftw and libgpufftw_mpi (no C++
 * type crosses it); not part of the extension API a program uses. */
#ifndef GPUFFTW_SHIM_FOREIGN_H
#define GPUFFTW_SHIM_FOREIGN_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The other FFTW's functions on its own plan (`real`): its fftw_execute,
 * fftw_execute_r2r (the new-array execute every entry maps to: the real
 * FFTW MPI's plans are rdft plans, and its fftw_mpi_execute_dft,
 * _dft_r2c, _dft_c2r and _r2r all call fftw_execute_r2r), fftw_destroy_plan,
 * fftw_fprint_plan, fftw_flops, fftw_cost and fftw_estimate_cost. The table
 * must outlive every plan made with it. */
typedef struct gpufftw_foreign_ops {
  const char *origin; /* "the real FFTW MPI" */
  void (*execute)(void *real);
  void (*execute_r2r)(void *real, void *in, void *out);
  void (*destroy)(void *real);
  void (*fprint)(void *real, FILE *out);
  void (*flops)(void *real, double *add, double *mul, double *fma);
  double (*cost)(void *real);
  double (*estimate_cost)(void *real);
  /* Where the plan computes ("cpu", "gpu") and why, as gpufftw_plan_where
   * and gpufftw_plan_why say it, asked once when the handle is made; NULL:
   * "cpu" and "planned by <origin>". The strings must live as long as the
   * plan. */
  const char *(*where)(void *real);
  const char *(*why)(void *real);
} gpufftw_foreign_ops;

/* The kind of transform the foreign plan computes, as the execute entries
 * check it: 0 c2c, 1 r2c, 2 c2r, 3 r2r (a transpose is an r2r). */
typedef enum { GPUFFTW_FOREIGN_C2C = 0, GPUFFTW_FOREIGN_R2C, GPUFFTW_FOREIGN_C2R, GPUFFTW_FOREIGN_R2R } gpufftw_foreign_kind;

/* A gpufftw plan handle (fftw_plan or fftwf_plan, by `precision` 'd' or
 * 'f') that owns `real`; NULL for a NULL `real`. `rank`/`n` are the global
 * sizes, `sign` a c2c's direction, `in`/`out` the arrays it was planned on,
 * `plan_ms` the time its planner call took: for the log and the report
 * only. */
void *gpufftw_foreign_plan(const gpufftw_foreign_ops *ops, void *real, char precision, gpufftw_foreign_kind kind,
                           int rank, const long *n, long howmany, int sign, void *in, void *out, double plan_ms);

/* A choice libgpufftw_mpi measured between its composed plan and the real
 * FFTW MPI, kept in gpufftw's dispatch store beside the serial ones under
 * `key` (no spaces). recall: 1, with which won and both times in ms, where
 * one is kept. */
int gpufftw_foreign_recall(const char *key, int *composed, double *composed_ms, double *real_ms);
void gpufftw_foreign_remember(const char *key, int composed, double composed_ms, double real_ms);

/* The cost model's price, in seconds, of the real serial FFTW computing the
 * problem (`kind`, sizes `n` of `rank`, `howmany`) at `threads`; negative
 * where gpufftw has no model. Calibrates the model at first need. */
double gpufftw_foreign_cpu_seconds(char precision, gpufftw_foreign_kind kind, int rank, const long *n, long howmany,
                                   int threads);

/* fftw_set_timelimit ('d') or fftwf_set_timelimit ('f') as the program last
 * set it, in seconds; negative: no limit. */
double gpufftw_foreign_time_limit(char precision);

/* The plans gpufftw makes on this thread, from here until
 * gpufftw_foreign_plan_end(scope), are made inside the other library's
 * plan: each keeps to what `limit` seconds from now leave
 * (fftw_set_timelimit's form: negative, no limit) where that ends before
 * the program's own limit does, so that the serial plans of a composed MPI
 * plan keep to its limit. Scopes end in the reverse order they began. */
void *gpufftw_foreign_plan_begin(double limit);
void gpufftw_foreign_plan_end(void *scope);

/* libgpufftw_mpi, as it loads: its code is gpufftw's own, not another FFTW's
   (shim/interpose/other_fftw.h), and its dlsym calls are its own. */
void gpufftw_own_library(const void *code);

/* This process's rank among `size` (MPI_COMM_WORLD's), which labels its
 * report: each rank of an MPI program prints one. */
void gpufftw_foreign_report_rank(int rank, int size);

/* The foreign plan inside handle `plan` when it was made with `ops`, else NULL. */
void *gpufftw_foreign_plan_real(const void *plan, const gpufftw_foreign_ops *ops);

/* The real serial FFTW under the real FFTW MPI, a second real FFTW in the
 * process that holds the MPI plans' wisdom: its fftw_forget_wisdom and
 * fftw_cleanup ('d'; fftwf_ for 'f'), handed over by libgpufftw_mpi as it
 * opens it, so that the program's fftw_forget_wisdom and fftw_cleanup,
 * which are gpufftw's, reach that wisdom too, as FFTW's reach its one
 * planner. */
void gpufftw_foreign_wisdom(char precision, void (*forget_wisdom)(void), void (*cleanup)(void));

#ifdef __cplusplus
}

namespace gpufftw {
enum class Precision;  // core/problem.h

// The serial FFTW under the real FFTW MPI (gpufftw_foreign_wisdom), where
// it is open: its wisdom forgotten, or with `cleanup` its planner cleaned
// up (FFTW's fftw_cleanup: the MPI solvers go too, until fftw_mpi_cleanup).
void forget_foreign_wisdom(Precision precision, bool cleanup);

// Once per process: warns where the program's fftw_mpi_* calls reach the
// real FFTW MPI rather than libgpufftw_mpi (gpufftw preloaded alone into an
// FFTW MPI program): its plans would reach gpufftw's fftw_execute unwrapped.
// Called from the planner and fftw_malloc.
void check_real_fftw_mpi_once();
}  // namespace gpufftw
#endif

#endif
