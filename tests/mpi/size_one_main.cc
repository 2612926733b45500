// Distributed complex DFTs with a dimension of size 1, under every
// combination of FFTW_MPI_TRANSPOSED_IN / _OUT, against the serial DFT of
// the whole array: every rank makes the global input from its indices,
// transforms all of it with the serial planner, and checks its own part of
// the distributed output where the flags put it. The path is whatever
// GPUFFTW_MPI_PATH selects (the test script runs each), so a path that hands
// such a plan to an FFTW MPI that computes it wrongly fails here. Prints
// "np N: PASS" or FAIL, with every wrong case.
#include <fftw3-mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "../sweep/fftw_traits.h"
#include "mpi_test.h"

namespace {

using mpi_test::bad;
using mpi_test::me;
using mpi_test::np;

int checked = 0;

template <class R>
struct Api;
#define API(R_, X)                                                                                                   \
  template <>                                                                                                        \
  struct Api<R_> : sweep::FftwApi<R_> {                                                                              \
    static constexpr double tol = sizeof(R_) == 4 ? 1e-5 : 1e-12;                                                    \
    static ptrdiff_t mpi_local(int rnk, const ptrdiff_t *n, ptrdiff_t h, ptrdiff_t *ln0, ptrdiff_t *s0,              \
                               ptrdiff_t *ln1, ptrdiff_t *s1) {                                                      \
      return X##mpi_local_size_many_transposed(rnk, n, h, 0, 0, MPI_COMM_WORLD, ln0, s0, ln1, s1);                   \
    }                                                                                                                \
    static plan mpi_plan(int rnk, const ptrdiff_t *n, ptrdiff_t h, complex *a, int sign, unsigned flags) {           \
      return X##mpi_plan_many_dft(rnk, n, h, 0, 0, a, a, MPI_COMM_WORLD, sign, flags);                               \
    }                                                                                                                \
  };
API(double, fftw_)
API(float, fftwf_)
#undef API

struct Case {
  int rnk;
  ptrdiff_t n[3];
  ptrdiff_t howmany;
};

// The global input's value at flat index i of [n0][n1][rest].
double value(ptrdiff_t i, int part) { return part ? std::cos(1.3 * i + 0.4) * 0.5 : std::sin(0.7 * i + 1.9) * 0.5; }

template <class R>
void run(const Case &c, unsigned tflags, int sign) {
  using A = Api<R>;
  using C = typename A::complex;
  char label[160];
  std::snprintf(label, sizeof label, "%s %dD n=%tdx%tdx%td howmany %td%s%s %s", A::short_name, c.rnk, c.n[0], c.n[1],
                c.rnk > 2 ? c.n[2] : 1, c.howmany, (tflags & FFTW_MPI_TRANSPOSED_IN) ? " TRANSPOSED_IN" : "",
                (tflags & FFTW_MPI_TRANSPOSED_OUT) ? " TRANSPOSED_OUT" : "",
                sign == FFTW_FORWARD ? "forward" : "backward");
  ptrdiff_t rest = c.howmany;
  for (int i = 2; i < c.rnk; ++i) rest *= c.n[i];
  const ptrdiff_t n0 = c.n[0], n1 = c.n[1], total = n0 * n1 * rest;
  ptrdiff_t ln[2], ls[2];
  const ptrdiff_t alloc = A::mpi_local(c.rnk, c.n, c.howmany, &ln[0], &ls[0], &ln[1], &ls[1]);
  // Where (i0, i1) of the global array lies in this rank's part of a side
  // cut along `dim`; -1 where another rank holds it.
  auto at = [&](int dim, ptrdiff_t i0, ptrdiff_t i1) -> ptrdiff_t {
    const ptrdiff_t cut = dim ? i1 : i0, other = dim ? i0 : i1, other_n = dim ? n0 : n1;
    if (cut < ls[dim] || cut >= ls[dim] + ln[dim]) return -1;
    return ((cut - ls[dim]) * other_n + other) * rest;
  };
  const int in_dim = (tflags & FFTW_MPI_TRANSPOSED_IN) ? 1 : 0, out_dim = (tflags & FFTW_MPI_TRANSPOSED_OUT) ? 1 : 0;
  C *a = A::alloc_complex(std::max<ptrdiff_t>(alloc, 1));
  typename A::plan p = A::mpi_plan(c.rnk, c.n, c.howmany, a, sign, FFTW_ESTIMATE | tflags);
  int made = p != nullptr, everywhere = made;
  MPI_Allreduce(MPI_IN_PLACE, &everywhere, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (!everywhere) {
    // Every layout here is one FFTW MPI's interface accepts, and the
    // composed path takes every one of them.
    ++bad;
    std::fprintf(stderr, "rank %d: FAILED %s: no plan (%s)\n", me, label, made ? "on another rank" : "here");
    if (p) A::destroy_plan(p);
    A::free(a);
    return;
  }
  for (ptrdiff_t i0 = 0; i0 < n0; ++i0)
    for (ptrdiff_t i1 = 0; i1 < n1; ++i1) {
      const ptrdiff_t to = at(in_dim, i0, i1);
      if (to < 0) continue;
      for (ptrdiff_t r = 0; r < rest; ++r)
        for (int k = 0; k < 2; ++k) a[to + r][k] = static_cast<R>(value((i0 * n1 + i1) * rest + r, k));
    }
  A::execute(p);
  // The serial reference over the whole array, in double the precision
  // would be nicer, but the tolerance already allows for the precision.
  std::vector<int> dims(static_cast<size_t>(c.rnk));
  for (int i = 0; i < c.rnk; ++i) dims[static_cast<size_t>(i)] = static_cast<int>(c.n[i]);
  C *x = A::alloc_complex(total), *y = A::alloc_complex(total);
  for (ptrdiff_t i = 0; i < total; ++i)
    for (int k = 0; k < 2; ++k) x[i][k] = static_cast<R>(value(i, k));
  const int h = static_cast<int>(c.howmany);
  typename A::plan s = A::plan_many_dft(c.rnk, dims.data(), h, x, nullptr, h, 1, y, nullptr, h, 1, sign, FFTW_ESTIMATE);
  A::execute(s);
  double sum[2] = {0, 0};
  for (ptrdiff_t i0 = 0; i0 < n0; ++i0)
    for (ptrdiff_t i1 = 0; i1 < n1; ++i1) {
      const ptrdiff_t from = at(out_dim, i0, i1);
      if (from < 0) continue;
      for (ptrdiff_t r = 0; r < rest; ++r)
        for (int k = 0; k < 2; ++k) {
          const double want = y[(i0 * n1 + i1) * rest + r][k], d = static_cast<double>(a[from + r][k]) - want;
          sum[0] += d * d;
          sum[1] += want * want;
        }
    }
  const double e = mpi_test::relative_l2(sum[0], sum[1]);
  if (!(e <= A::tol)) {
    ++bad;
    if (me == 0) std::fprintf(stderr, "FAILED %s: relative L2 error %.3g\n", label, e);
  }
  ++checked;
  A::destroy_plan(s);
  A::destroy_plan(p);
  A::free(x);
  A::free(y);
  A::free(a);
}

template <class R>
void every_case() {
  // A 1 in each place of rank 2 and 3, two of them, and the sizes the real
  // FFTW MPI was seen to get wrong (1x64x64 with howmany 3, 1x8x16, 3x1x16).
  const Case cases[] = {
      {2, {1, 16, 1}, 1}, {2, {16, 1, 1}, 1}, {2, {1, 1, 1}, 2},  {3, {1, 8, 16}, 1}, {3, {1, 64, 64}, 3},
      {3, {3, 1, 16}, 1}, {3, {8, 16, 1}, 1}, {3, {1, 1, 8}, 1},  {3, {1, 6, 1}, 2},  {3, {5, 1, 1}, 1},
  };
  const unsigned tflags[] = {0, FFTW_MPI_TRANSPOSED_IN, FFTW_MPI_TRANSPOSED_OUT,
                             FFTW_MPI_TRANSPOSED_IN | FFTW_MPI_TRANSPOSED_OUT};
  for (const Case &c : cases)
    for (unsigned t : tflags)
      for (int sign : {FFTW_FORWARD, FFTW_BACKWARD}) run<R>(c, t, sign);
}

}  // namespace

int main(int argc, char **argv) {
  mpi_test::start(&argc, &argv);
  every_case<double>();
  every_case<float>();
  mpi_test::cleanup();
  MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (me == 0) std::printf("np %d: %d size-1 plans checked against the serial DFT\nnp %d: %s\n", np, checked, np,
                           bad ? "FAIL" : "PASS");
  MPI_Finalize();
  return bad != 0;
}
