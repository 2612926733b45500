// FFTW MPI plans through whatever FFTW this process was given (the real one,
// gpufftw preloaded, drop-in or relinked): c2c 3-D both ways and through
// fftw_mpi_execute_dft with other arrays, r2c and c2r 3-D (FFTW's padded
// layout) and back, a transposed-out 2-D transform, a global transpose; each
// gathered to rank 0 and checked there against a serial FFTW plan of the
// same transform. The plans are also printed, costed and destroyed through
// the serial API (fftw_sprint_plan, fftw_flops, fftw_cost, fftw_destroy_plan).
// A NULL plan for an impossible problem on every rank. Prints PASS or FAIL.
#include <fftw3-mpi.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "mpi_test.h"

namespace {

using mpi_test::bad;
using mpi_test::expect;
using mpi_test::me;
using mpi_test::np;

double value(ptrdiff_t i, int k) { return std::sin(0.37 * static_cast<double>(i) + 1.3 * k) + 0.1 * k; }

// Gathers a rank's `count` complex values (in local order) into `all` on rank 0.
std::vector<fftw_complex> gather(const fftw_complex *local, ptrdiff_t count) {
  std::vector<int> counts(np), displs(np);
  int c = static_cast<int>(2 * count);
  MPI_Gather(&c, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  int total = 0;
  for (int r = 0; r < np; ++r) displs[r] = total, total += counts[r];
  std::vector<fftw_complex> all(static_cast<size_t>(total / 2) + 1);
  MPI_Gatherv(local, c, MPI_DOUBLE, all.data(), counts.data(), displs.data(), MPI_DOUBLE, 0, MPI_COMM_WORLD);
  return all;
}

double rel_err(const fftw_complex *a, const fftw_complex *b, ptrdiff_t n) {
  double num = 0, den = 0;
  for (ptrdiff_t i = 0; i < n; ++i) {
    double dr = a[i][0] - b[i][0], di = a[i][1] - b[i][1];
    num += dr * dr + di * di;
    den += b[i][0] * b[i][0] + b[i][1] * b[i][1];
  }
  return std::sqrt(num / (den > 0 ? den : 1));
}

void serial_api(fftw_plan p, const char *what) {
  double add = -1, mul = -1, fma = -1;
  fftw_flops(p, &add, &mul, &fma);
  expect(add > 0, what);
  char *s = fftw_sprint_plan(p);
  expect(s && s[0] == '(', what);
  std::free(s);
  expect(fftw_cost(p) >= 0, what);
}

void c2c_3d() {
  const ptrdiff_t n0 = 12, n1 = 10, n2 = 6;
  ptrdiff_t ln0, l0;
  ptrdiff_t alloc = fftw_mpi_local_size_3d(n0, n1, n2, MPI_COMM_WORLD, &ln0, &l0);
  fftw_complex *a = fftw_alloc_complex(alloc), *b = fftw_alloc_complex(alloc), *c = fftw_alloc_complex(alloc);
  fftw_plan fwd = fftw_mpi_plan_dft_3d(n0, n1, n2, a, b, MPI_COMM_WORLD, FFTW_FORWARD, FFTW_ESTIMATE);
  fftw_plan bwd = fftw_mpi_plan_dft_3d(n0, n1, n2, b, a, MPI_COMM_WORLD, FFTW_BACKWARD, FFTW_MEASURE);
  expect(fwd && bwd, "c2c plans");
  for (ptrdiff_t i = 0; i < ln0 * n1 * n2; ++i) {
    a[i][0] = value(l0 * n1 * n2 + i, 0);
    a[i][1] = value(l0 * n1 * n2 + i, 1);
  }
  for (ptrdiff_t i = 0; i < ln0 * n1 * n2; ++i) c[i][0] = a[i][0], c[i][1] = a[i][1];
  fftw_execute(fwd);
  std::vector<fftw_complex> got = gather(b, ln0 * n1 * n2);
  fftw_mpi_execute_dft(fwd, c, a);  // the same transform, other arrays (c kept the input)
  std::vector<fftw_complex> got2 = gather(a, ln0 * n1 * n2);
  std::vector<fftw_complex> in = gather(c, ln0 * n1 * n2);
  fftw_execute(bwd);  // b -> a: n0 n1 n2 times the input
  std::vector<fftw_complex> back = gather(a, ln0 * n1 * n2);
  if (me == 0) {
    const ptrdiff_t N = n0 * n1 * n2;
    std::vector<fftw_complex> want(N);
    fftw_plan s = fftw_plan_dft_3d(n0, n1, n2, in.data(), want.data(), FFTW_FORWARD, FFTW_ESTIMATE);
    fftw_execute(s);
    fftw_destroy_plan(s);
    expect(rel_err(got.data(), want.data(), N) < 1e-12, "c2c forward (fftw_execute)");
    expect(rel_err(got2.data(), want.data(), N) < 1e-12, "c2c forward (fftw_mpi_execute_dft)");
    for (ptrdiff_t i = 0; i < N; ++i) back[i][0] /= N, back[i][1] /= N;
    expect(rel_err(back.data(), in.data(), N) < 1e-12, "c2c backward");
  }
  serial_api(fwd, "c2c serial API on an MPI plan");
  fftw_destroy_plan(fwd);
  fftw_destroy_plan(bwd);
  fftw_free(a), fftw_free(b), fftw_free(c);
}

void r2c_3d() {
  const ptrdiff_t n0 = 8, n1 = 6, n2 = 10, h = n2 / 2 + 1;
  ptrdiff_t ln0, l0;
  ptrdiff_t alloc = fftw_mpi_local_size_3d(n0, n1, h, MPI_COMM_WORLD, &ln0, &l0);
  double *r = fftw_alloc_real(2 * alloc);
  fftw_complex *c = fftw_alloc_complex(alloc);
  fftw_plan fwd = fftw_mpi_plan_dft_r2c_3d(n0, n1, n2, r, c, MPI_COMM_WORLD, FFTW_ESTIMATE);
  fftw_plan bwd = fftw_mpi_plan_dft_c2r_3d(n0, n1, n2, c, r, MPI_COMM_WORLD, FFTW_ESTIMATE);
  expect(fwd && bwd, "r2c/c2r plans");
  std::vector<fftw_complex> mine(ln0 * n1 * n2);  // the input, as complex, for the check
  for (ptrdiff_t i = 0; i < ln0; ++i)
    for (ptrdiff_t j = 0; j < n1; ++j)
      for (ptrdiff_t k = 0; k < n2; ++k) {
        ptrdiff_t g = ((l0 + i) * n1 + j) * n2 + k;
        r[(i * n1 + j) * (2 * h) + k] = value(g, 2);  // padded rows of 2(n2/2+1)
        mine[(i * n1 + j) * n2 + k][0] = value(g, 2);
        mine[(i * n1 + j) * n2 + k][1] = 0;
      }
  fftw_execute(fwd);
  std::vector<fftw_complex> got = gather(c, ln0 * n1 * h);
  std::vector<fftw_complex> in = gather(mine.data(), ln0 * n1 * n2);
  fftw_mpi_execute_dft_c2r(bwd, c, r);
  for (ptrdiff_t i = 0; i < ln0; ++i)
    for (ptrdiff_t j = 0; j < n1; ++j)
      for (ptrdiff_t k = 0; k < n2; ++k) {
        mine[(i * n1 + j) * n2 + k][0] = r[(i * n1 + j) * (2 * h) + k] / (n0 * n1 * n2);
        mine[(i * n1 + j) * n2 + k][1] = 0;
      }
  std::vector<fftw_complex> back = gather(mine.data(), ln0 * n1 * n2);
  if (me == 0) {
    const ptrdiff_t N = n0 * n1 * n2;
    std::vector<fftw_complex> full(N), want(n0 * n1 * h);
    fftw_plan s = fftw_plan_dft_3d(n0, n1, n2, in.data(), full.data(), FFTW_FORWARD, FFTW_ESTIMATE);
    fftw_execute(s);
    fftw_destroy_plan(s);
    for (ptrdiff_t i = 0; i < n0 * n1; ++i)
      for (ptrdiff_t k = 0; k < h; ++k) want[i * h + k][0] = full[i * n2 + k][0], want[i * h + k][1] = full[i * n2 + k][1];
    expect(rel_err(got.data(), want.data(), n0 * n1 * h) < 1e-12, "r2c forward");
    expect(rel_err(back.data(), in.data(), N) < 1e-12, "c2r backward");
  }
  serial_api(bwd, "c2r serial API on an MPI plan");
  fftw_destroy_plan(fwd);
  fftw_destroy_plan(bwd);
  fftw_free(r), fftw_free(c);
}

void transpose() {
  const ptrdiff_t n0 = 9, n1 = 7;
  ptrdiff_t ln0, l0, ln1, l1;
  ptrdiff_t alloc = fftw_mpi_local_size_2d_transposed(n0, n1, MPI_COMM_WORLD, &ln0, &l0, &ln1, &l1);
  double *a = fftw_alloc_real(alloc), *b = fftw_alloc_real(alloc);
  fftw_plan t = fftw_mpi_plan_transpose(n0, n1, a, b, MPI_COMM_WORLD, FFTW_ESTIMATE);
  expect(t != nullptr, "transpose plan");
  for (ptrdiff_t i = 0; i < ln0; ++i)
    for (ptrdiff_t j = 0; j < n1; ++j) a[i * n1 + j] = static_cast<double>((l0 + i) * 1000 + j);
  fftw_execute(t);
  for (ptrdiff_t j = 0; j < ln1; ++j)
    for (ptrdiff_t i = 0; i < n0; ++i)
      if (b[j * n0 + i] != static_cast<double>(i * 1000 + l1 + j)) {
        expect(false, "transpose");
        j = ln1;
        break;
      }
  fftw_destroy_plan(t);
  fftw_free(a), fftw_free(b);
}

void single_precision_and_null() {
  const ptrdiff_t n[2] = {16, 12};
  ptrdiff_t ln0, l0;
  ptrdiff_t alloc = fftwf_mpi_local_size(2, n, MPI_COMM_WORLD, &ln0, &l0);
  fftwf_complex *a = fftwf_alloc_complex(alloc);
  for (ptrdiff_t i = 0; i < ln0 * n[1]; ++i) a[i][0] = static_cast<float>(value(l0 * n[1] + i, 3)), a[i][1] = 0;
  fftwf_plan p = fftwf_mpi_plan_dft(2, n, a, a, MPI_COMM_WORLD, FFTW_FORWARD, FFTW_ESTIMATE);
  expect(p != nullptr, "f32 in-place plan");
  fftwf_execute(p);
  double sum0 = 0;  // the DC term: the sum of all inputs
  if (l0 == 0 && ln0 > 0) sum0 = a[0][0];
  double local = 0, total = 0, dc = 0;
  for (ptrdiff_t i = 0; i < ln0 * n[1]; ++i) local += value(l0 * n[1] + i, 3);
  MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&sum0, &dc, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  expect(std::fabs(dc - total) < 1e-3 * (1 + std::fabs(total)), "f32 DC term");
  fftwf_destroy_plan(p);
  fftwf_free(a);
  // FFTW_MPI_TRANSPOSED_IN on a 1-D transform is refused: NULL on every rank.
  fftw_complex *x = fftw_alloc_complex(64);
  fftw_plan q = fftw_mpi_plan_dft_1d(64, x, x, MPI_COMM_WORLD, FFTW_FORWARD, FFTW_ESTIMATE | FFTW_MPI_TRANSPOSED_IN);
  int nulls = q == nullptr, all = 0;
  MPI_Allreduce(&nulls, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  expect(all == 0 || all == np, "NULL alike on every rank");
  if (q) fftw_destroy_plan(q);
  fftw_free(x);
}

// fftw_plan_with_nthreads reaches the MPI plans: a 3-D plan of 64^3 on 2
// threads prints threaded sub-plans ("thr"). Printed, for plans_test.sh to
// hold equal to what the real FFTW MPI alone does.
void threads() {
  fftw_init_threads();
  fftw_plan_with_nthreads(2);
  const ptrdiff_t n = 64;
  ptrdiff_t ln0, l0;
  ptrdiff_t alloc = fftw_mpi_local_size_3d(n, n, n, MPI_COMM_WORLD, &ln0, &l0);
  fftw_complex *a = fftw_alloc_complex(alloc);
  fftw_plan p = fftw_mpi_plan_dft_3d(n, n, n, a, a, MPI_COMM_WORLD, FFTW_FORWARD, FFTW_ESTIMATE);
  expect(p != nullptr, "threaded plan");
  char *s = p ? fftw_sprint_plan(p) : nullptr;
  int mine = s && std::strstr(s, "thr") ? 1 : 0, all = 0;
  std::free(s);
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (me == 0) std::printf("np %d: %d of %d ranks' plans threaded\n", np, all, np);
  if (p) fftw_destroy_plan(p);
  fftw_free(a);
  fftw_plan_with_nthreads(1);
}

// Wisdom: gather and broadcast run (collectively, on every rank alike), and
// rank 0 says whether the program's wisdom holds the MPI plans' entries
// (docs/mpi.md, known gaps: through gpufftw it does not).
void wisdom() {
  fftw_mpi_gather_wisdom(MPI_COMM_WORLD);
  fftw_mpi_broadcast_wisdom(MPI_COMM_WORLD);
  if (me == 0) {
    char *w = fftw_export_wisdom_to_string();
    std::printf("np %d: wisdom string %s MPI entries\n", np, w && std::strstr(w, "mpi") ? "holds" : "lacks");
    std::free(w);
  }
}

// gpufftw's re-entry count where gpufftw is there (0 otherwise): a call of
// gpufftw's API made from inside another on the same thread.
unsigned long reentries() {
  auto f = mpi_test::ext<unsigned long (*)()>("gpufftw_reentry_count");
  return f ? f() : 0;
}

}  // namespace

int main(int argc, char **argv) {
  mpi_test::start(&argc, &argv);
  c2c_3d();
  r2c_3d();
  transpose();
  single_precision_and_null();
  threads();
  wisdom();
  expect(reentries() == 0, "no call into gpufftw from inside gpufftw");
  mpi_test::cleanup();
  int total = 0;
  MPI_Allreduce(&bad, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (me == 0) std::printf("np %d: %s\n", np, total ? "FAIL" : "PASS");
  MPI_Finalize();
  return total ? 1 : 0;
}
