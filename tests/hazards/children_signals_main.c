/* An unchanged FFTW program that starts children every way libc offers
 * (system, popen, posix_spawn, vfork + exec), some of them FFTW programs
 * themselves (this program, with the argument "child"), while a 1 ms timer
 * interrupts it with a handler of its own. Each transform is of a unit
 * impulse and must give all ones. Exit status: 0 right, 2 a child or the
 * timer went wrong (said on stderr), 4 a NULL plan, 5 a wrong element. */
#define _GNU_SOURCE
#include <fftw3.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "impulse.h"

extern char **environ;

static volatile sig_atomic_t ticks;
static void on_tick(int sig) {
  (void)sig;
  ++ticks;
}

static int transform(int n, unsigned flags) {
  fftw_complex *a = fftw_alloc_complex((size_t)n);
  fftw_plan p = fftw_plan_dft_1d(n, a, a, FFTW_FORWARD, flags);
  if (!p) return 4;
  if (impulse_status(p, a, n)) return 5;
  fftw_destroy_plan(p);
  fftw_free(a);
  return 0;
}

static int wrong(const char *what, int status) {
  fprintf(stderr, "children_signals: %s gave status %d\n", what, status);
  return 2;
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "child") == 0) return transform(256, FFTW_ESTIMATE);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_tick;
  sigaction(SIGALRM, &sa, NULL);  /* no SA_RESTART: calls see EINTR */
  const struct itimerval every_ms = {{0, 1000}, {0, 1000}};
  setitimer(ITIMER_REAL, &every_ms, NULL);
  int s = transform(4096, FFTW_MEASURE);
  if (s) return s;

  /* The timer is off while children run: its ticks would break this
   * program's own waits (waitpid, fgets) with EINTR, which are no FFTW call. */
  const struct itimerval off = {{0, 0}, {0, 0}};
  setitimer(ITIMER_REAL, &off, NULL);
  if ((s = system("exit 0")) != 0) return wrong("system", s);
  FILE *f = popen("echo popen", "r");
  char line[16] = "";
  if (!f || !fgets(line, sizeof line, f) || strcmp(line, "popen\n") != 0) return wrong("popen's output", 0);
  if ((s = pclose(f)) != 0) return wrong("pclose", s);
  char *const child[] = {argv[0], "child", NULL};
  pid_t pid;
  if ((s = posix_spawn(&pid, argv[0], NULL, NULL, child, environ)) != 0) return wrong("posix_spawn", s);
  if (waitpid(pid, &s, 0) != pid || s != 0) return wrong("the posix_spawn child", s);
  if ((pid = vfork()) == 0) {
    execv(argv[0], child);
    _exit(127);
  }
  if (pid < 0 || waitpid(pid, &s, 0) != pid || s != 0) return wrong("the vfork child", s);

  setitimer(ITIMER_REAL, &every_ms, NULL);
  s = transform(1 << 16, FFTW_MEASURE);
  setitimer(ITIMER_REAL, &off, NULL);
  if (s) return s;
  if (ticks == 0) return wrong("the timer (no tick)", 0);
  printf("children_signals: right, %d ticks\n", (int)ticks);
  return 0;
}
