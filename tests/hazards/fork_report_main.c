/* fork_report: an FFTW program that forks twice after planning. The
 * first child exits having used no plan; the second plans one transform
 * of its own and executes it once. The parent executes its plan three
 * times in all and waits for both. Under GPUFFTW_REPORT=1 each process
 * that used a plan reports its own counts: the parent 1 plan and 3
 * executes, the second child 1 plan and 1 execute, the first nothing. */
#include <fftw3.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

/* A child lets go of what it inherited before it exits, as a program
 * would (a leak checker counts it otherwise). */
static void child_exit(fftw_plan p, fftw_complex *a, int status) {
  fftw_destroy_plan(p);
  fftw_free(a);
  exit(status);
}

static int child_done(pid_t pid) {
  int status = 0;
  return waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

int main(void) {
  const int n = 64;
  fftw_complex *a = fftw_alloc_complex(n);
  for (int i = 0; i < n; ++i) a[i][0] = i, a[i][1] = 0;
  fftw_plan p = fftw_plan_dft_1d(n, a, a, FFTW_FORWARD, FFTW_ESTIMATE);
  if (!p) return 1;
  fftw_execute(p);
  fflush(stdout);
  fflush(stderr);
  const pid_t idle = fork();
  if (idle == 0) child_exit(p, a, 0);
  const pid_t busy = fork();
  if (busy == 0) {
    double *r = fftw_alloc_real(2 * n);
    fftw_plan q = fftw_plan_r2r_1d(2 * n, r, r, FFTW_REDFT10, FFTW_ESTIMATE);
    if (!q) child_exit(p, a, 1);
    for (int i = 0; i < 2 * n; ++i) r[i] = 1;
    fftw_execute(q);
    fftw_destroy_plan(q);
    fftw_free(r);
    child_exit(p, a, 0);
  }
  fftw_execute(p);
  fftw_execute(p);
  const int ok = idle > 0 && busy > 0 && child_done(idle) && child_done(busy);
  fftw_destroy_plan(p);
  fftw_free(a);
  printf("fork_report: %s\n", ok ? "right" : "a child failed");
  return ok ? 0 : 1;
}
