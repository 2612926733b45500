/* fork_planning MODE: an FFTW program that forks while gpufftw holds
 * state another thread is using, and whose children plan and execute.
 *   planning: a second thread plans (FFTW_MEASURE, its wisdom forgotten
 *     each time, so that it measures) while the main thread forks ten
 *     children, one every few milliseconds;
 *   threads: after a threaded plan has run (two threads), one child;
 *   cleanup: the same after fftw_cleanup_threads, the child starting the
 *     threads again;
 *   inherited: after a plan has run (on the GPU, where the test asks
 *     for it), one child that runs that plan again, then one of its own.
 * Each child plans and executes a transform (threaded after threads) and
 * checks it on an impulse; a child that hangs is ended by its alarm.
 * Exit 0 where every child exited 0; else the child's status is said. */
#include <fftw3.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "impulse.h"

enum { kSide = 256, kForks = 10 };

static volatile int stop;

static void *plan_on(void *unused) {
  (void)unused;
  fftw_complex *a = fftw_alloc_complex(1 << 12);
  for (int n = 1 << 10; !stop; n = n == 1 << 12 ? 1 << 10 : n * 2) {
    fftw_forget_wisdom();
    fftw_destroy_plan(fftw_plan_dft_1d(n, a, a, FFTW_FORWARD, FFTW_MEASURE));
    /* A pause between plans, as a program has: else this thread takes the
     * planner's lock again before the forking one, waiting on it, wakes. */
    usleep(1000);
  }
  fftw_free(a);
  return NULL;
}

/* In the child: a transform planned and checked, threaded where asked;
 * never returns. */
static void child(int threads) {
  alarm(10);
  if (threads) fftw_plan_with_nthreads(2);
  fftw_complex *a = fftw_alloc_complex(kSide * kSide);
  fftw_plan p = fftw_plan_dft_2d(kSide, kSide, a, a, FFTW_FORWARD, FFTW_ESTIMATE);
  _exit(p ? impulse_status(p, a, kSide * kSide) : 4);
}

static int waited(pid_t pid) {
  int status = 0;
  if (waitpid(pid, &status, 0) != pid) return perror("fork_planning: waitpid"), 0;
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return 1;
  if (WIFSIGNALED(status))
    fprintf(stderr, "fork_planning: a child ended by signal %d%s\n", WTERMSIG(status),
            WTERMSIG(status) == SIGALRM ? " (its alarm: it hung)" : "");
  else
    fprintf(stderr, "fork_planning: a child exited %d\n", WEXITSTATUS(status));
  return 0;
}

static int forks_while_planning(void) {
  pthread_t planner;
  if (pthread_create(&planner, NULL, plan_on, NULL) != 0) return perror("fork_planning: pthread_create"), 1;
  int right = 1;
  for (int i = 0; i < kForks && right; ++i) {
    usleep(5000);
    const pid_t pid = fork();
    if (pid == 0) child(0);
    right = pid > 0 && waited(pid);
  }
  stop = 1;
  pthread_join(planner, NULL);
  return !right;
}

static int forks_after_threads(int cleanup) {
  if (!fftw_init_threads()) return fprintf(stderr, "fork_planning: fftw_init_threads failed\n"), 1;
  fftw_plan_with_nthreads(2);
  fftw_complex *a = fftw_alloc_complex(kSide * kSide);
  fftw_plan p = fftw_plan_dft_2d(kSide, kSide, a, a, FFTW_FORWARD, FFTW_ESTIMATE);
  const int before = p ? impulse_status(p, a, kSide * kSide) : 4;
  fftw_destroy_plan(p);
  fftw_free(a);
  if (before != 0) return fprintf(stderr, "fork_planning: the parent's threaded plan is wrong\n"), 1;
  if (cleanup) fftw_cleanup_threads();
  const pid_t pid = fork();
  if (pid == 0) {
    if (cleanup && !fftw_init_threads()) _exit(3);
    child(1);
  }
  const int right = pid > 0 && waited(pid);
  if (!cleanup) fftw_cleanup_threads();
  return !right;
}

static int forks_after_a_plan(void) {
  fftw_complex *a = fftw_alloc_complex(kSide * kSide);
  fftw_plan p = fftw_plan_dft_2d(kSide, kSide, a, a, FFTW_FORWARD, FFTW_ESTIMATE);
  if (!p || impulse_status(p, a, kSide * kSide) != 0)
    return fprintf(stderr, "fork_planning: the parent's plan is wrong\n"), 1;
  const pid_t pid = fork();
  if (pid == 0) {
    alarm(10);
    if (impulse_status(p, a, kSide * kSide) != 0) _exit(6);
    child(0);
  }
  const int right = pid > 0 && waited(pid) && impulse_status(p, a, kSide * kSide) == 0;
  fftw_destroy_plan(p);
  fftw_free(a);
  return !right;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  int status = 2;
  if (strcmp(mode, "planning") == 0)
    status = forks_while_planning();
  else if (strcmp(mode, "threads") == 0 || strcmp(mode, "cleanup") == 0)
    status = forks_after_threads(strcmp(mode, "cleanup") == 0);
  else if (strcmp(mode, "inherited") == 0)
    status = forks_after_a_plan();
  else
    fprintf(stderr, "usage: fork_planning planning|threads|cleanup|inherited\n");
  if (status == 0) printf("fork_planning %s: right\n", mode);
  return status;
}
