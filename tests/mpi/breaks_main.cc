// The plans gpufftw leaves to the real FFTW MPI whole on which it crashes
// or writes past local_size's arrays (real_fftw_mpi_breaks_dft_1d, _r2r in
// mpi/composed/decide.h): NULL on every rank, with a warning, and the real
// FFTW MPI never called; the same plans one step off are planned and run
// within local_size's arrays. Linked to the real FFTW MPI alone, the
// program crashes or fails (tests/mpi/breaks_test.sh shows it).
// Prints "np N: PASS" or FAIL.
#include <fftw3-mpi.h>

#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <string>
#include <vector>

#include "mpi_test.h"

namespace {

using mpi_test::expect;
using mpi_test::me;
using mpi_test::np;

int on_every_rank(int v) {
  int lo = v, hi = v;
  MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return lo == hi ? lo : -1;
}

constexpr ptrdiff_t kGuard = 4096;
constexpr double kCanary = 12345;

// `plan` on arrays of `alloc` reals (local_size's) with guards past them:
// whether a plan came back on every rank (-1: on some only); a plan is run
// and must leave the guards as they were.
template <class Plan>
int plan_and_run(const std::string &label, ptrdiff_t alloc, Plan plan) {
  double *in = fftw_alloc_real(alloc + kGuard), *out = fftw_alloc_real(alloc + kGuard);
  for (double *a : {in, out})
    for (ptrdiff_t i = 0; i < alloc + kGuard; ++i) a[i] = i < alloc ? std::sin(0.3 * static_cast<double>(i)) : kCanary;
  fftw_plan p = plan(in, out);
  const int made = on_every_rank(p != nullptr);
  if (p) {
    fftw_execute(p);
    int past = 0;
    for (double *a : {in, out})
      for (ptrdiff_t i = alloc; i < alloc + kGuard; ++i) past += a[i] != kCanary;
    expect(on_every_rank(past ? 1 : 0) == 0, label + ": wrote past local_size's arrays");
    fftw_destroy_plan(p);
  }
  fftw_free(in);
  fftw_free(out);
  if (me == 0) std::printf("np %d: %s: %s\n", np, label.c_str(), made == 1 ? "a plan" : made == 0 ? "NULL" : "mixed");
  return made;
}

// A 1-D DFT of n, howmany h, on every rank.
void dft_1d(ptrdiff_t n, ptrdiff_t h, int want) {
  ptrdiff_t ni, is, no, os;
  const ptrdiff_t alloc = 2 * fftw_mpi_local_size_many_1d(n, h, MPI_COMM_WORLD, FFTW_FORWARD, FFTW_ESTIMATE, &ni, &is,
                                                          &no, &os);
  const std::string label = "1-D DFT of " + std::to_string(n) + " howmany " + std::to_string(h);
  const int made = plan_and_run(label, alloc, [&](double *in, double *out) {
    const ptrdiff_t size[1] = {n};
    return h == 1 ? fftw_mpi_plan_dft_1d(n, reinterpret_cast<fftw_complex *>(in), reinterpret_cast<fftw_complex *>(out),
                                         MPI_COMM_WORLD, FFTW_FORWARD, FFTW_ESTIMATE)
                  : fftw_mpi_plan_many_dft(1, size, h, 0, 0, reinterpret_cast<fftw_complex *>(in),
                                           reinterpret_cast<fftw_complex *>(out), MPI_COMM_WORLD, FFTW_FORWARD,
                                           FFTW_ESTIMATE);
  });
  expect(made == want, label + (want ? ": no plan" : ": a plan; NULL wanted"));
}

// An r2r of n0 x n1 (x n2), every dimension of `kind`.
void r2r(std::initializer_list<ptrdiff_t> dims, fftw_r2r_kind kind, int want) {
  const std::vector<ptrdiff_t> n(dims);
  const int rnk = static_cast<int>(n.size());
  ptrdiff_t l0, s0;
  const ptrdiff_t alloc = fftw_mpi_local_size_many(rnk, n.data(), 1, 0, MPI_COMM_WORLD, &l0, &s0);
  std::string label = "r2r of kind " + std::to_string(kind) + ", ";
  for (int i = 0; i < rnk; ++i) label += (i ? "x" : "") + std::to_string(n[i]);
  const std::vector<fftw_r2r_kind> kinds(n.size(), kind);
  const int made = plan_and_run(label, alloc, [&](double *in, double *out) {
    return fftw_mpi_plan_r2r(rnk, n.data(), in, out, MPI_COMM_WORLD, kinds.data(), FFTW_ESTIMATE);
  });
  expect(made == want, label + (want ? ": no plan" : ": a plan; NULL wanted"));
}

}  // namespace

int main(int argc, char **argv) {
  mpi_test::start(&argc, &argv);
  // The real FFTW MPI crashes planning a 1-D DFT of size 1, on any number
  // of ranks.
  dft_1d(1, 1, 0);
  dft_1d(1, 3, 0);
  dft_1d(2, 1, 1);
  // And writes past local_size's arrays on the ranks holding nothing
  // where an r2r's dimension 0 is of size 1 under a kind that scales it,
  // on 2 ranks and more.
  const int several = np > 1 ? 0 : 1;
  r2r({1, 9}, FFTW_REDFT10, several);
  r2r({1, 9, 3}, FFTW_RODFT11, several);
  r2r({1, 9}, FFTW_DHT, 1);
  r2r({9, 1}, FFTW_REDFT10, 1);
  mpi_test::cleanup();
  const int failed = on_every_rank(mpi_test::bad > 0 ? 1 : 0) != 0;
  if (me == 0) std::printf("np %d: %s\n", np, failed ? "FAIL" : "PASS");
  MPI_Finalize();
  return failed;
}
