// FFTW_WISDOM_ONLY on distributed plans, answered as FFTW answers it, in
// both precisions, under GPUFFTW_MPI_PATH=auto and real (the real FFTW MPI
// alone ignores the setting, and must pass the same checks): a problem
// never planned has no plan; after an FFTW_MEASURE plan of it, destroyed,
// the same problem has one, on the side the measured plan took (under
// auto, the composed plan where the timing kept it, which the real FFTW
// MPI's wisdom then lacks), and it computes what an FFTW_ESTIMATE plan
// computes; and after the program's fftw_forget_wisdom, fftw_cleanup,
// fftw_cleanup_threads or fftw_mpi_cleanup it has none again. Prints
// "np N: PASS" or FAIL.
#include <fftw3-mpi.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "../sweep/fftw_traits.h"
#include "mpi_test.h"

namespace {

using mpi_test::bad;
using mpi_test::expect;
using mpi_test::ext;
using mpi_test::me;
using mpi_test::np;

template <class R>
struct Api;
#define API(R_, X)                                                                                               \
  template <>                                                                                                    \
  struct Api<R_> : sweep::FftwApi<R_> {                                                                          \
    static constexpr double tol = sizeof(R_) == 4 ? 1e-5 : 1e-12;                                                \
    static ptrdiff_t mpi_local(ptrdiff_t n0, ptrdiff_t n1, ptrdiff_t *ln0) {                                     \
      ptrdiff_t s0;                                                                                              \
      return X##mpi_local_size_2d(n0, n1, MPI_COMM_WORLD, ln0, &s0);                                             \
    }                                                                                                            \
    static plan mpi_plan(ptrdiff_t n0, ptrdiff_t n1, complex *in, complex *out, unsigned flags) {                \
      return X##mpi_plan_dft_2d(n0, n1, in, out, MPI_COMM_WORLD, FFTW_FORWARD, flags);                           \
    }                                                                                                            \
    static constexpr auto forget_wisdom = &X##forget_wisdom;                                                     \
    static constexpr auto cleanup = &X##cleanup;                                                                 \
    static constexpr auto init_threads = &X##init_threads;                                                       \
    static constexpr auto cleanup_threads = &X##cleanup_threads;                                                 \
    static constexpr auto mpi_init = &X##mpi_init;                                                               \
    static constexpr auto mpi_cleanup = &X##mpi_cleanup;                                                         \
  };
API(double, fftw_)
API(float, fftwf_)
#undef API

int on_every_rank(int v) {
  MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return v;
}
// Whether `plan` is gpufftw's composed plan (its why says so); false on
// the real FFTW MPI alone.
bool composed(const void *plan) {
  auto why = ext<const char *(*)(const void *)>("gpufftw_plan_why");
  return why && plan && std::string(why(plan)).rfind("composed", 0) == 0;
}

// The plan's answer on every rank: one everywhere (true), none anywhere
// (false); else a failed check.
template <class R>
bool planned(typename Api<R>::plan p, const std::string &what) {
  const int some = !on_every_rank(p == nullptr), all = on_every_rank(p != nullptr);
  expect(some == all, what + ": a plan on some ranks only");
  return all != 0;
}

// A 2-D in-place forward c2c of n0 x 10, n0 of the precision and path's own
// (so that no earlier case's wisdom serves it), under `path`.
template <class R>
void wisdom_only(const char *path, ptrdiff_t n0) {
  using A = Api<R>;
  using C = typename A::complex;
  const ptrdiff_t n1 = 10;
  const std::string label = std::string(A::short_name) + " " + std::to_string(n0) + "x10 GPUFFTW_MPI_PATH=" + path;
  setenv("GPUFFTW_MPI_PATH", path, 1);
  ptrdiff_t ln0;
  const ptrdiff_t count = A::mpi_local(n0, n1, &ln0);
  C *x = A::alloc_complex(count), *y = A::alloc_complex(count), *want = A::alloc_complex(count);
  const unsigned only = FFTW_MEASURE | FFTW_WISDOM_ONLY;

  typename A::plan p = A::mpi_plan(n0, n1, x, x, only);
  expect(!planned<R>(p, label + ", FFTW_WISDOM_ONLY before any plan"), label + ": FFTW_WISDOM_ONLY, no wisdom: a plan");
  if (p) A::destroy_plan(p);

  p = A::mpi_plan(n0, n1, x, x, FFTW_MEASURE);
  expect(planned<R>(p, label + ", FFTW_MEASURE"), label + ": FFTW_MEASURE: no plan");
  const int measured_composed = composed(p);
  if (p) A::destroy_plan(p);

  typename A::plan q = A::mpi_plan(n0, n1, y, y, only);
  expect(planned<R>(q, label + ", FFTW_WISDOM_ONLY after FFTW_MEASURE"),
         label + ": FFTW_WISDOM_ONLY after FFTW_MEASURE: no plan");
  if (q) {
    expect(composed(q) == measured_composed, label + ": FFTW_WISDOM_ONLY took the other side than FFTW_MEASURE");
    typename A::plan ref = A::mpi_plan(n0, n1, x, want, FFTW_ESTIMATE);
    double diff2 = 0, want2 = 0;
    for (ptrdiff_t i = 0; i < ln0 * n1; ++i)
      for (int k = 0; k < 2; ++k) y[i][k] = x[i][k] = static_cast<R>(0.5 - ((i * 7 + k * 3 + me * 11) % 17) / 16.0);
    A::execute(ref);
    A::execute(q);
    for (ptrdiff_t i = 0; i < ln0 * n1; ++i)
      for (int k = 0; k < 2; ++k) {
        const double d = static_cast<double>(y[i][k]) - want[i][k];
        diff2 += d * d;
        want2 += static_cast<double>(want[i][k]) * want[i][k];
      }
    const double e = mpi_test::relative_l2(diff2, want2);
    expect(e <= A::tol, label + ": FFTW_WISDOM_ONLY plan's error " + std::to_string(e));
    A::destroy_plan(ref);
    A::destroy_plan(q);
    if (me == 0)
      std::printf("np %d: %s: FFTW_WISDOM_ONLY after FFTW_MEASURE: %s\n", np, label.c_str(),
                  measured_composed ? "composed" : "the real FFTW MPI");
  }

  // The program's fftw_forget_wisdom, fftw_cleanup, fftw_cleanup_threads
  // and fftw_mpi_cleanup forget the MPI plans' wisdom, as FFTW's: each
  // after an FFTW_MEASURE plan.
  const struct {
    const char *name;
    void (*forget)();
  } forgets[] = {{"forget_wisdom", A::forget_wisdom},
                 {"cleanup", A::cleanup},
                 {"cleanup_threads",
                  [] {
                    A::init_threads();
                    A::cleanup_threads();
                  }},
                 {"mpi_cleanup", A::mpi_cleanup}};
  for (const auto &f : forgets) {
    const std::string after = label + ", FFTW_WISDOM_ONLY after " + A::prefix + f.name;
    p = A::mpi_plan(n0, n1, x, x, FFTW_MEASURE);
    expect(planned<R>(p, after), after + ": FFTW_MEASURE: no plan");
    if (p) A::destroy_plan(p);
    f.forget();
    p = A::mpi_plan(n0, n1, x, x, only);
    expect(!planned<R>(p, after), after + ": a plan");
    if (p) A::destroy_plan(p);
    // fftw_cleanup takes FFTW's MPI solvers with the planner, until
    // fftw_mpi_cleanup.
    A::mpi_cleanup();
    A::mpi_init();
  }
  A::free(x);
  A::free(y);
  A::free(want);
}

}  // namespace

int main(int argc, char **argv) {
  mpi_test::start(&argc, &argv);
  ptrdiff_t n0 = 12;
  for (const char *path : {"auto", "real"}) {
    wisdom_only<double>(path, n0++);
    wisdom_only<float>(path, n0++);
  }
  mpi_test::cleanup();
  const int failed = !on_every_rank(bad == 0);
  if (me == 0) std::printf("np %d: %s\n", np, failed ? "FAIL" : "PASS");
  MPI_Finalize();
  return failed;
}
