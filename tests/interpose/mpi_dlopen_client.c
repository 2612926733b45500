/* An FFTW MPI program that opens FFTW's MPI library itself (dlopen of
 * libfftw3f_mpi.so.3, dlsym by handle) and links none of FFTW: a 2-D c2c
 * over the ranks, each rank's rows checked against a direct 2-D DFT.
 * Prints "rank R: err E" and exits 0 only where every rank is right. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fftw3-mpi.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { N0 = 16, N1 = 12 };

static double value(int i, int j, int part) {
  return part ? sin(0.3 * i + 0.05 * j * j) : cos(0.2 * i * j + 0.1) + 0.01 * i;
}

static void *need(void *h, const char *name) {
  void *f = dlsym(h, name);
  if (!f) {
    fprintf(stderr, "mpi_dlopen_client: %s: %s\n", name, dlerror());
    exit(1);
  }
  return f;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  void *h = dlopen("libfftw3f_mpi.so.3", RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    fprintf(stderr, "mpi_dlopen_client: dlopen: %s\n", dlerror());
    return 1;
  }
  void (*init)(void) = (void (*)(void))need(h, "fftwf_mpi_init");
  ptrdiff_t (*local_size)(ptrdiff_t, ptrdiff_t, MPI_Comm, ptrdiff_t *, ptrdiff_t *) =
      (ptrdiff_t(*)(ptrdiff_t, ptrdiff_t, MPI_Comm, ptrdiff_t *, ptrdiff_t *))need(h, "fftwf_mpi_local_size_2d");
  fftwf_plan (*plan)(ptrdiff_t, ptrdiff_t, fftwf_complex *, fftwf_complex *, MPI_Comm, int, unsigned) =
      (fftwf_plan(*)(ptrdiff_t, ptrdiff_t, fftwf_complex *, fftwf_complex *, MPI_Comm, int, unsigned))need(
          h, "fftwf_mpi_plan_dft_2d");
  void (*execute)(fftwf_plan) = (void (*)(fftwf_plan))need(h, "fftwf_execute");
  void (*destroy)(fftwf_plan) = (void (*)(fftwf_plan))need(h, "fftwf_destroy_plan");
  fftwf_complex *(*alloc)(size_t) = (fftwf_complex * (*)(size_t)) need(h, "fftwf_alloc_complex");
  void (*release)(void *) = (void (*)(void *))need(h, "fftwf_free");
  void (*cleanup)(void) = (void (*)(void))need(h, "fftwf_mpi_cleanup");
  init();
  ptrdiff_t n0, start;
  const ptrdiff_t alloc_local = local_size(N0, N1, MPI_COMM_WORLD, &n0, &start);
  fftwf_complex *a = alloc(alloc_local > 0 ? alloc_local : 1);
  fftwf_plan p = plan(N0, N1, a, a, MPI_COMM_WORLD, FFTW_FORWARD, FFTW_ESTIMATE);
  if (!p) {
    fprintf(stderr, "rank %d: NULL plan\n", rank);
    return 1;
  }
  for (ptrdiff_t i = 0; i < n0; ++i)
    for (int j = 0; j < N1; ++j) {
      a[i * N1 + j][0] = (float)value((int)(start + i), j, 0);
      a[i * N1 + j][1] = (float)value((int)(start + i), j, 1);
    }
  execute(p);
  const double pi = acos(-1.0);
  double num = 0, den = 0;
  for (ptrdiff_t k0 = start; k0 < start + n0; ++k0)
    for (int k1 = 0; k1 < N1; ++k1) {
      double re = 0, im = 0;
      for (int i = 0; i < N0; ++i)
        for (int j = 0; j < N1; ++j) {
          const double ang = -2 * pi * ((double)(i * k0 % N0) / N0 + (double)(j * k1 % N1) / N1);
          const double xr = (float)value(i, j, 0), xi = (float)value(i, j, 1);
          re += xr * cos(ang) - xi * sin(ang);
          im += xr * sin(ang) + xi * cos(ang);
        }
      const fftwf_complex *y = &a[(k0 - start) * N1 + k1];
      num += ((*y)[0] - re) * ((*y)[0] - re) + ((*y)[1] - im) * ((*y)[1] - im);
      den += re * re + im * im;
    }
  const double err = den > 0 ? sqrt(num / den) : 0;
  printf("rank %d: err %.2g\n", rank, err);
  destroy(p);
  release(a);
  cleanup();
  int ok = err < 1e-5, all = 0;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Finalize();
  return all ? 0 : 1;
}
