// gpufftw's composed distributed DFTs (mpi/composed/) against the real FFTW
// MPI on the same inputs: every plan is made twice, once with
// GPUFFTW_MPI_PATH=real and once with composed, and the two outputs are
// compared over the whole distributed array (relative L2: 1e-5 single,
// 1e-12 double). 2-D and 3-D sizes with n0 and n1 not divisible by the
// ranks and smaller than them (ranks without data), howmany 1 and 2, FFTW's
// default blocks and a block of 2, FFTW_MPI_TRANSPOSED_IN / _OUT / both,
// in place and out of place, forward and backward, f32 and f64, and the
// r2c and c2r of the same sizes (their real side not transposed); each again
// through fftw_mpi_execute_dft(_r2c, _c2r) on other arrays; a plan the real FFTW MPI
// refuses is NULL on every rank both ways. On rank 0, every other composed
// plan is made with GPUFFTW_MODE=cpu (gpufftw_set_mode), so where the others
// use a GPU, ranks whose local transforms run on the CPU and ranks whose
// run on the GPU meet in one plan. Under GPUFFTW_MPI_PATH=auto with
// FFTW_ESTIMATE the plan is composed exactly where every rank has a GPU,
// a tiny one and a large one alike. Large slabs check the device-resident
// route's chunks. The c2r layouts the real FFTW MPI gets wrong are composed
// under GPUFFTW_MPI_PATH=real too, and checked against the serial c2r.
// Prints "np N: PASS" or FAIL.
#include <fftw3-mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "../sweep/fftw_traits.h"
#include "mpi_test.h"

namespace {

using mpi_test::bad;
using mpi_test::expect;
using mpi_test::ext;
using mpi_test::me;
using mpi_test::np;

int checked = 0, on_gpu = 0, through_nccl = 0;
double worst[2] = {0, 0};
bool where_gpu(const void *plan) {
  auto f = ext<const char *(*)(const void *)>("gpufftw_plan_where");
  return f && plan && std::strcmp(f(plan), "gpu") == 0;
}
std::string why_of(const void *plan) {
  auto f = ext<const char *(*)(const void *)>("gpufftw_plan_why");
  return f && plan ? f(plan) : "";
}
void set_mode(int mode) {
  if (auto f = ext<void (*)(int)>("gpufftw_set_mode")) f(mode);
}
int get_mode() {
  auto f = ext<int (*)(void)>("gpufftw_get_mode");
  return f ? f() : 0;
}
int gpu_everywhere() {
  auto available = ext<int (*)(void)>("gpufftw_gpu_available");
  auto mode = ext<int (*)(void)>("gpufftw_get_mode");
  int here = available && mode && mode() != 2 && available();
  MPI_Allreduce(MPI_IN_PLACE, &here, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return here;
}

// One 3-D transform in the default blocks: planned through the _3d entry
// points, so that those are exercised too; anything else through _many.
bool plain_3d(int rnk, ptrdiff_t h, ptrdiff_t ib, ptrdiff_t ob) { return rnk == 3 && h == 1 && ib == 0 && ob == 0; }

template <class R>
struct Api;
#define API(R_, X)                                                                                                   \
  template <>                                                                                                        \
  struct Api<R_> : sweep::FftwApi<R_> {                                                                              \
    static constexpr double tol = sizeof(R_) == 4 ? 1e-5 : 1e-12;                                                    \
    static constexpr int which = sizeof(R_) == 4 ? 0 : 1;                                                            \
    static ptrdiff_t mpi_local(int rnk, const ptrdiff_t *n, ptrdiff_t h, ptrdiff_t b0, ptrdiff_t b1, ptrdiff_t *ln0, \
                               ptrdiff_t *ln1) {                                                                     \
      ptrdiff_t s0, s1;                                                                                              \
      return X##mpi_local_size_many_transposed(rnk, n, h, b0, b1, MPI_COMM_WORLD, ln0, &s0, ln1, &s1);               \
    }                                                                                                                \
    static plan mpi_plan(int rnk, const ptrdiff_t *n, ptrdiff_t h, ptrdiff_t ib, ptrdiff_t ob, complex *in,          \
                         complex *out, int sign, unsigned flags) {                                                   \
      if (plain_3d(rnk, h, ib, ob))                                                                                  \
        return X##mpi_plan_dft_3d(n[0], n[1], n[2], in, out, MPI_COMM_WORLD, sign, flags);                           \
      return X##mpi_plan_many_dft(rnk, n, h, ib, ob, in, out, MPI_COMM_WORLD, sign, flags);                          \
    }                                                                                                                \
    static plan mpi_plan_r2c(int rnk, const ptrdiff_t *n, ptrdiff_t h, ptrdiff_t ib, ptrdiff_t ob, complex *in,      \
                             complex *out, unsigned flags) {                                                         \
      R_ *real = reinterpret_cast<R_ *>(in);                                                                         \
      if (plain_3d(rnk, h, ib, ob))                                                                                  \
        return X##mpi_plan_dft_r2c_3d(n[0], n[1], n[2], real, out, MPI_COMM_WORLD, flags);                           \
      return X##mpi_plan_many_dft_r2c(rnk, n, h, ib, ob, real, out, MPI_COMM_WORLD, flags);                          \
    }                                                                                                                \
    static void mpi_execute_r2c(plan p, complex *in, complex *out) {                                                 \
      X##mpi_execute_dft_r2c(p, reinterpret_cast<R_ *>(in), out);                                                    \
    }                                                                                                                \
    static plan mpi_plan_c2r(int rnk, const ptrdiff_t *n, ptrdiff_t h, ptrdiff_t ib, ptrdiff_t ob, complex *in,      \
                             complex *out, unsigned flags) {                                                         \
      R_ *real = reinterpret_cast<R_ *>(out);                                                                        \
      if (plain_3d(rnk, h, ib, ob))                                                                                  \
        return X##mpi_plan_dft_c2r_3d(n[0], n[1], n[2], in, real, MPI_COMM_WORLD, flags);                            \
      return X##mpi_plan_many_dft_c2r(rnk, n, h, ib, ob, in, real, MPI_COMM_WORLD, flags);                           \
    }                                                                                                                \
    static void mpi_execute_c2r(plan p, complex *in, complex *out) {                                                 \
      X##mpi_execute_dft_c2r(p, in, reinterpret_cast<R_ *>(out));                                                    \
    }                                                                                                                \
    static void mpi_execute_dft(plan p, complex *in, complex *out) { X##mpi_execute_dft(p, in, out); }               \
  };
API(double, fftw_)
API(float, fftwf_)
#undef API

struct Case {
  int rnk;
  ptrdiff_t n[3];
  ptrdiff_t howmany, block;
};

template <class R>
void fill(typename Api<R>::complex *a, ptrdiff_t count, int seed) {
  for (ptrdiff_t i = 0; i < count; ++i) {
    a[i][0] = static_cast<R>(std::sin(0.7 * static_cast<double>(i) + 1.9 * me + seed) * 0.5);
    a[i][1] = static_cast<R>(std::cos(1.3 * static_cast<double>(i) + 0.3 * me + seed) * 0.5);
  }
}

// Relative L2 distance of got from want over every rank's `count` values.
template <class R>
double distance(const typename Api<R>::complex *got, const typename Api<R>::complex *want, ptrdiff_t count) {
  double s[2] = {0, 0};
  for (ptrdiff_t i = 0; i < count; ++i)
    for (int k = 0; k < 2; ++k) {
      const double d = static_cast<double>(got[i][k]) - want[i][k];
      s[0] += d * d;
      s[1] += static_cast<double>(want[i][k]) * want[i][k];
    }
  return mpi_test::relative_l2(s[0], s[1]);
}

int on_every_rank(int v) {
  int lo = v, hi = v;
  MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return lo == hi ? lo : -1;
}

// Relative L2 distance over every rank's `rows` rows of a padded real
// array: each `row` reals, of which the first `used` are the transform's
// (the padding after them is no output).
template <class R>
double distance_real(const R *got, const R *want, ptrdiff_t rows, ptrdiff_t row, ptrdiff_t used) {
  double s[2] = {0, 0};
  for (ptrdiff_t r = 0; r < rows; ++r)
    for (ptrdiff_t i = r * row; i < r * row + used; ++i) {
      const double d = static_cast<double>(got[i]) - want[i];
      s[0] += d * d;
      s[1] += static_cast<double>(want[i]) * want[i];
    }
  return mpi_test::relative_l2(s[0], s[1]);
}

// The r2c's input and the c2r's output are FFTW's padded real arrays (the
// last dimension 2 (n/2 + 1) reals; an r2c's padding is filled too, which
// neither reads), their complex sides cut as a complex DFT of the sizes cn
// (the last one n/2 + 1). A c2r's input is Hermitian: the real FFTW MPI's
// r2c of a real array, laid out as the c2r takes it.
enum Op { kForward, kBackward, kR2c, kC2r };

template <class R>
void run(const Case &c, unsigned tflags, bool in_place, Op op, unsigned planner, int serial) {
  using A = Api<R>;
  using C = typename A::complex;
  const bool r2c = op == kR2c, c2r = op == kC2r;
  const int sign = op == kBackward ? FFTW_BACKWARD : FFTW_FORWARD;
  char label[200];
  std::snprintf(label, sizeof label, "%s %dD n=%tdx%tdx%td howmany %td block %td%s%s %s %s", A::short_name, c.rnk,
                c.n[0], c.n[1], c.rnk > 2 ? c.n[2] : 1, c.howmany, c.block,
                (tflags & FFTW_MPI_TRANSPOSED_IN) ? " TRANSPOSED_IN" : "",
                (tflags & FFTW_MPI_TRANSPOSED_OUT) ? " TRANSPOSED_OUT" : "", in_place ? "in-place" : "out-of-place",
                r2c ? "r2c" : c2r ? "c2r" : sign == FFTW_FORWARD ? "forward" : "backward");
  ptrdiff_t cn[3] = {c.n[0], c.n[1], c.n[2]};
  if (r2c || c2r) cn[c.rnk - 1] = c.n[c.rnk - 1] / 2 + 1;
  ptrdiff_t rest = c.howmany;
  for (int i = 2; i < c.rnk; ++i) rest *= cn[i];
  // The arrays: as big as either order of dims 0 and 1 needs; this rank's
  // input and output counts as the layout the flags name.
  const int in_dim = (tflags & FFTW_MPI_TRANSPOSED_IN) ? 1 : 0, out_dim = (tflags & FFTW_MPI_TRANSPOSED_OUT) ? 1 : 0;
  ptrdiff_t ln[2][2], dummy;
  ptrdiff_t alloc = A::mpi_local(c.rnk, cn, c.howmany, c.block, c.block, &ln[0][0], &ln[0][1]);
  alloc = std::max(alloc, A::mpi_local(c.rnk, cn, c.howmany, 0, 0, &ln[1][0], &ln[1][1]));
  const ptrdiff_t swapped[3] = {cn[1], cn[0], cn[2]};
  alloc = std::max(alloc, A::mpi_local(c.rnk, swapped, c.howmany, 0, 0, &dummy, &dummy));
  alloc = 2 * std::max(alloc, A::mpi_local(c.rnk, swapped, c.howmany, c.block, c.block, &dummy, &dummy)) + 1;
  const ptrdiff_t in_count = ln[0][in_dim] * cn[1 - in_dim] * rest;  // an r2c's: complex values' worth of reals
  const ptrdiff_t out_count = ln[0][out_dim] * cn[1 - out_dim] * rest;
  auto plan = [&](C *in, C *out) {
    if (r2c) return A::mpi_plan_r2c(c.rnk, c.n, c.howmany, c.block, c.block, in, out, planner | tflags);
    if (c2r) return A::mpi_plan_c2r(c.rnk, c.n, c.howmany, c.block, c.block, in, out, planner | tflags);
    return A::mpi_plan(c.rnk, c.n, c.howmany, c.block, c.block, in, out, sign, planner | tflags);
  };
  auto load = [&](C *in, int seed) {
    if (!c2r) return fill<R>(in, in_count, seed);
    C *real = A::alloc_complex(alloc);
    fill<R>(real, ln[0][0] * cn[1] * rest, seed);
    setenv("GPUFFTW_MPI_PATH", "real", 1);
    typename A::plan q = A::mpi_plan_r2c(c.rnk, c.n, c.howmany, c.block, c.block, real, in,
                                  FFTW_ESTIMATE | (in_dim ? FFTW_MPI_TRANSPOSED_OUT : 0));
    expect(q != nullptr, std::string(label) + ": no r2c for the Hermitian input");
    if (q) A::execute(q), A::destroy_plan(q);
    A::free(real);
  };
  ptrdiff_t rows = ln[0][0];  // a c2r's output rows of the last dimension
  for (int i = 1; i + 1 < c.rnk; ++i) rows *= cn[i];
  auto compare = [&](C *got, C *want) {
    if (!c2r) return distance<R>(got, want, out_count);
    return distance_real<R>(reinterpret_cast<R *>(got), reinterpret_cast<R *>(want), rows,
                            2 * cn[c.rnk - 1] * c.howmany, c.n[c.rnk - 1] * c.howmany);
  };

  C *a[2], *b[2];  // [0]: the real FFTW MPI's plan, [1]: the composed one
  for (int k = 0; k < 2; ++k) {
    a[k] = A::alloc_complex(alloc);
    b[k] = in_place ? a[k] : A::alloc_complex(alloc);
  }
  typename A::plan p[2];
  setenv("GPUFFTW_MPI_PATH", "real", 1);
  p[0] = plan(a[0], b[0]);
  setenv("GPUFFTW_MPI_PATH", "composed", 1);
  const int mode = get_mode();  // the mode the run was started in, restored after
  if (me == 0 && serial) set_mode(2);
  p[1] = plan(a[1], b[1]);
  if (me == 0 && serial) set_mode(mode);
  const int made[2] = {on_every_rank(p[0] != nullptr), on_every_rank(p[1] != nullptr)};
  expect(made[0] >= 0 && made[0] == made[1], std::string(label) + ": NULL on some ranks or on one path only");
  if (made[0] == 1 && made[1] == 1) {
    on_gpu += where_gpu(p[1]);
    through_nccl += why_of(p[1]).find("(NCCL)") != std::string::npos;
    expect(why_of(p[1]).rfind("composed over", 0) == 0, std::string(label) + ": not composed: " + why_of(p[1]));
    expect(why_of(p[0]).find("real FFTW MPI") != std::string::npos, std::string(label) + ": " + why_of(p[0]));
    for (int k = 0; k < 2; ++k) load(a[k], 1);
    for (int k = 0; k < 2; ++k) A::execute(p[k]);
    double e = compare(b[1], b[0]);
    expect(e <= A::tol, std::string(label) + ": error " + std::to_string(e));
    worst[A::which] = std::max(worst[A::which], e);
    // Other arrays through fftw_mpi_execute_dft, same in-place-ness.
    C *x[2], *y[2];
    for (int k = 0; k < 2; ++k) {
      x[k] = A::alloc_complex(alloc);
      y[k] = in_place ? x[k] : A::alloc_complex(alloc);
      load(x[k], 2);
      if (r2c)
        A::mpi_execute_r2c(p[k], x[k], y[k]);
      else if (c2r)
        A::mpi_execute_c2r(p[k], x[k], y[k]);
      else
        A::mpi_execute_dft(p[k], x[k], y[k]);
    }
    e = compare(y[1], y[0]);
    expect(e <= A::tol, std::string(label) + ": fftw_mpi_execute_dft error " + std::to_string(e));
    worst[A::which] = std::max(worst[A::which], e);
    for (int k = 0; k < 2; ++k) {
      if (!in_place) A::free(y[k]);
      A::free(x[k]);
    }
    ++checked;
  }
  for (int k = 0; k < 2; ++k) {
    if (p[k]) A::destroy_plan(p[k]);
    if (!in_place) A::free(b[k]);
    A::free(a[k]);
  }
}

template <class R>
void every_case() {
  const Case cases[] = {
      {2, {5, 7, 1}, 1, 0},  // n0, n1 not divisible by 2, 3, 4
      {2, {3, 8, 1}, 1, 0},  // n0 < 4 ranks
      {3, {6, 5, 4}, 1, 0},  // through fftw_mpi_plan_dft_3d
      {3, {2, 3, 5}, 2, 0},  // n0 and n1 below the ranks, howmany 2
      {3, {5, 6, 3}, 2, 2},  // blocks of 2: NULL where 3 blocks exceed the ranks
  };
  const unsigned tflags[] = {0, FFTW_MPI_TRANSPOSED_OUT, FFTW_MPI_TRANSPOSED_IN,
                             FFTW_MPI_TRANSPOSED_IN | FFTW_MPI_TRANSPOSED_OUT};
  int serial = 0;
  for (const Case &c : cases)
    for (unsigned t : tflags)
      for (int in_place = 0; in_place < 2; ++in_place)
        for (Op op : {kForward, kBackward}) run<R>(c, t, in_place, op, FFTW_ESTIMATE, serial++ % 2);
  // The r2c and the c2r: their real side is not transposed (the real FFTW
  // MPI's where it is).
  for (const Case &c : cases)
    for (int in_place = 0; in_place < 2; ++in_place) {
      for (unsigned t : {0u, unsigned(FFTW_MPI_TRANSPOSED_OUT)}) run<R>(c, t, in_place, kR2c, FFTW_ESTIMATE, serial++ % 2);
      for (unsigned t : {0u, unsigned(FFTW_MPI_TRANSPOSED_IN)}) run<R>(c, t, in_place, kC2r, FFTW_ESTIMATE, serial++ % 2);
    }
  // FFTW_MEASURE: the serial planner times on the arrays, as FFTW may.
  for (Op op : {kForward, kR2c, kC2r}) run<R>({3, {7, 6, 4}, 1, 0}, 0, false, op, FFTW_MEASURE, 0);
}

// Slabs big enough that a GPU rank copies them in and out in several
// chunks of unequal planes (composed/resident.h), each way of the output.
void large() {
  const Case big = {3, {256, 256, 192}, 1, 0};
  for (unsigned t : {0u, unsigned(FFTW_MPI_TRANSPOSED_OUT)}) {
    run<float>(big, t, false, kForward, FFTW_ESTIMATE, 0);
    run<float>(big, t, false, kR2c, FFTW_ESTIMATE, 0);
  }
}

// Under auto with FFTW_MEASURE the composed plan and the real FFTW MPI's
// are timed and the faster kept, alike on every rank: a composed plan's why
// says what was measured (now, or by an earlier plan or run: the store),
// and the plan computes what the real FFTW MPI's computes. Twice, so the
// second plan finds the first one's choice.
void measured() {
  const ptrdiff_t n[3] = {16, 12, 10};
  ptrdiff_t ln0, s0, ln1, s1;
  const ptrdiff_t count = fftw_mpi_local_size_many_transposed(3, n, 1, 0, 0, MPI_COMM_WORLD, &ln0, &s0, &ln1, &s1);
  fftw_complex *x = fftw_alloc_complex(count), *y = fftw_alloc_complex(count), *want = fftw_alloc_complex(count);
  setenv("GPUFFTW_MPI_PATH", "real", 1);
  fftw_plan ref = fftw_mpi_plan_many_dft(3, n, 1, 0, 0, x, want, MPI_COMM_WORLD, FFTW_FORWARD, FFTW_ESTIMATE);
  setenv("GPUFFTW_MPI_PATH", "auto", 1);
  for (int round = 0; round < 2; ++round) {
    fftw_plan p = fftw_mpi_plan_many_dft(3, n, 1, 0, 0, x, y, MPI_COMM_WORLD, FFTW_FORWARD, FFTW_MEASURE);
    const std::string why = why_of(p);
    const int composed = why.rfind("composed", 0) == 0;
    expect(p && on_every_rank(composed) == composed, "auto, FFTW_MEASURE: no plan, or not the same side everywhere");
    if (composed) expect(why.find("; measured") != std::string::npos, "auto, FFTW_MEASURE, composed: " + why);
    fill<double>(x, count, 3);
    fftw_execute(ref);
    fftw_execute(p);
    const double e = distance<double>(y, want, ln0 * n[1] * n[2]);
    expect(e <= 1e-12, "auto, FFTW_MEASURE: error " + std::to_string(e));
    if (me == 0 && round == 1)
      std::printf("np %d: FFTW_MEASURE under auto: %s\n", np, composed ? why.c_str() : "the real FFTW MPI");
    fftw_destroy_plan(p);
  }
  fftw_destroy_plan(ref);
  fftw_free(x);
  fftw_free(y);
  fftw_free(want);
}

// Under auto with FFTW_ESTIMATE: the real FFTW MPI where not every rank
// has a GPU, by that vote alone; where every rank has one, composed,
// unpriced, the tiny transform and the large one alike, whether
// GPUFFTW_MODE is auto or gpu: the model sees none of the real FFTW MPI's
// own fixed costs, so no verdict for it is drawn from the model.
void estimated(int gpu) {
  setenv("GPUFFTW_MPI_PATH", "auto", 1);
  const ptrdiff_t tiny[2] = {8, 8}, big[3] = {256, 256, 192};
  for (const ptrdiff_t *n : {tiny, big}) {
    const int rnk = n == tiny ? 2 : 3;
    ptrdiff_t ln0, s0;
    const ptrdiff_t count = fftwf_mpi_local_size_many(rnk, n, 1, FFTW_MPI_DEFAULT_BLOCK, MPI_COMM_WORLD, &ln0, &s0);
    fftwf_complex *a = fftwf_alloc_complex(count > 0 ? count : 1);
    fftwf_plan p = fftwf_mpi_plan_many_dft(rnk, n, 1, FFTW_MPI_DEFAULT_BLOCK, FFTW_MPI_DEFAULT_BLOCK, a, a,
                                           MPI_COMM_WORLD, FFTW_FORWARD, FFTW_ESTIMATE);
    const std::string why = why_of(p), what = n == tiny ? "8x8" : "256x256x192";
    const int composed = why.rfind("composed", 0) == 0;
    expect(p && on_every_rank(composed) == composed, "auto, FFTW_ESTIMATE, " + what + ": no plan, or not the same "
           "side everywhere: " + why);
    if (!gpu)
      expect(!composed && why.find("not every rank has a GPU") != std::string::npos,
             "auto, FFTW_ESTIMATE, " + what + ", not every rank has a GPU: " + why);
    else
      expect(composed, "auto, FFTW_ESTIMATE, " + what + ", every rank has a GPU: " + why);
    if (me == 0 && gpu) std::printf("np %d: FFTW_ESTIMATE under auto, %s: %s\n", np, what.c_str(), why.c_str());
    if (p) fftwf_destroy_plan(p);
    fftwf_free(a);
  }
}

// The c2r layouts the real FFTW MPI gets wrong (real_fftw_mpi_fails):
// under GPUFFTW_MPI_PATH=real they are composed all the same, and right
// against the serial c2r, within local_size's arrays; where the composed
// path cannot take one (FFTW_PRESERVE_INPUT) the plan is NULL on every
// rank. On one rank they are the real FFTW MPI's, which is right there.
// `ib`, `ob`: the blocks; `place`: out of place, in place, or in place on
// every rank but rank 0 (which holds every plane where the blocks are the
// whole dimension, the others nothing); `want`: 'c' composed, 'r' the real
// FFTW MPI's plan, '0' NULL, on 2 ranks and more.
enum class Place { Out, In, InButRank0 };
void c2r_the_real_fftw_mpi_fails(std::vector<ptrdiff_t> n, ptrdiff_t h, ptrdiff_t ib, ptrdiff_t ob, Place place,
                                 unsigned extra, char want) {
  const bool in_place = place == Place::In || (place == Place::InButRank0 && me != 0);
  const int rnk = static_cast<int>(n.size());
  std::vector<ptrdiff_t> cn = n;
  cn.back() = n.back() / 2 + 1;
  char label[160];
  std::snprintf(label, sizeof label, "c2r %tdx%tdx%td howmany %td blocks %td/%td %s%s under GPUFFTW_MPI_PATH=real",
                n[0], n[1], rnk > 2 ? n[2] : 1, h, ib, ob,
                place == Place::In ? "in-place" : place == Place::Out ? "out-of-place" : "in place but on rank 0",
                (extra & FFTW_PRESERVE_INPUT) ? " FFTW_PRESERVE_INPUT" : "");
  if (np == 1) want = 'r';
  ptrdiff_t in_n0, in_s0, out_n0, out_s0;
  const ptrdiff_t alloc = std::max(fftw_mpi_local_size_many(rnk, cn.data(), h, ib, MPI_COMM_WORLD, &in_n0, &in_s0),
                                   fftw_mpi_local_size_many(rnk, cn.data(), h, ob, MPI_COMM_WORLD, &out_n0, &out_s0));
  // Guards past local_size's arrays, checked after the execute.
  const ptrdiff_t guard = 4096;
  fftw_complex *in = fftw_alloc_complex(alloc + guard), *out = in_place ? in : fftw_alloc_complex(alloc + guard);
  for (fftw_complex *a : {in, out})
    for (ptrdiff_t i = 0; i < alloc + guard; ++i) a[i][0] = a[i][1] = i < alloc ? 0 : 12345;
  setenv("GPUFFTW_MPI_PATH", "real", 1);
  fftw_plan p = fftw_mpi_plan_many_dft_c2r(rnk, n.data(), h, ib, ob, in, reinterpret_cast<double *>(out),
                                           MPI_COMM_WORLD, FFTW_ESTIMATE | extra);
  const int made = on_every_rank(p != nullptr);
  const std::string why = why_of(p);
  const int composed = on_every_rank(why.rfind("composed", 0) == 0);
  if (want == '0') {
    expect(made == 0, std::string(label) + ": a plan, or not on every rank; NULL wanted");
  } else if (made != 1) {
    expect(false, std::string(label) + ": NULL on some rank");
  } else {
    expect(composed == (want == 'c'), std::string(label) + (want == 'c' ? ": not composed: " : ": composed: ") + why);
    // The serial c2r's input: the r2c of x (global, [n0][n1..][h]).
    ptrdiff_t total = 1, ctotal = 1;
    for (int i = 0; i < rnk; ++i) total *= n[i], ctotal *= cn[i];
    std::vector<double> x(static_cast<size_t>(total * h));
    for (size_t i = 0; i < x.size(); ++i) x[i] = std::sin(0.61 * static_cast<double>(i) + 0.2);
    std::vector<fftw_complex> xc(static_cast<size_t>(ctotal * h));
    std::vector<int> ni(n.begin(), n.end());
    fftw_plan r2c = fftw_plan_many_dft_r2c(rnk, ni.data(), static_cast<int>(h), x.data(), nullptr, static_cast<int>(h),
                                           1, xc.data(), nullptr, static_cast<int>(h), 1, FFTW_ESTIMATE);
    fftw_execute(r2c);
    fftw_destroy_plan(r2c);
    const ptrdiff_t crow = ctotal / cn[0] * h;  // complex values per plane of dimension 0
    std::memcpy(in, xc.data() + in_s0 * crow, sizeof(fftw_complex) * static_cast<size_t>(in_n0 * crow));
    fftw_execute(p);
    // The output's planes, padded: each last-dimension line 2 (n/2 + 1) reals of which n are the transform's.
    const double *got = reinterpret_cast<const double *>(out);
    const ptrdiff_t lines = total / n[0] / n.back(), pad = 2 * cn.back() * h, used = n.back() * h;
    double d2 = 0, w2 = 0;
    for (ptrdiff_t i0 = 0; i0 < out_n0; ++i0)
      for (ptrdiff_t l = 0; l < lines; ++l)
        for (ptrdiff_t j = 0; j < used; ++j) {
          const double w = x[static_cast<size_t>(((out_s0 + i0) * lines + l) * used + j)] * static_cast<double>(total);
          const double d = got[(i0 * lines + l) * pad + j] - w;
          d2 += d * d, w2 += w * w;
        }
    const double e = mpi_test::relative_l2(d2, w2);
    expect(e <= 1e-12, std::string(label) + ": error " + std::to_string(e) + " against the serial c2r");
    int past = 0;
    for (fftw_complex *a : {in, out})
      for (ptrdiff_t i = alloc; i < alloc + guard; ++i) past += a[i][0] != 12345 || a[i][1] != 12345;
    expect(on_every_rank(past > 0 ? 1 : 0) == 0, std::string(label) + ": wrote past local_size's arrays");
    if (me == 0) std::printf("np %d: %s: %s, relative L2 %.2e\n", np, label, composed ? "composed" : "real", e);
    ++checked;
  }
  if (p) fftw_destroy_plan(p);
  if (!in_place) fftw_free(out);
  fftw_free(in);
}

void c2r_the_real_fftw_mpi_fails() {
  // A rank holds other numbers of the input's planes than of the output's.
  c2r_the_real_fftw_mpi_fails({3, 24}, 2, 0, 3, Place::In, 0, 'c');
  c2r_the_real_fftw_mpi_fails({3, 24}, 2, 0, 3, Place::Out, 0, 'c');
  c2r_the_real_fftw_mpi_fails({7, 5, 12}, 2, 7, 0, Place::Out, FFTW_PRESERVE_INPUT, '0');
  // Out of place, all of it on one rank of several; also where the ranks
  // holding nothing pass one buffer for both arrays: every rank decides
  // alike, the plan out of place.
  c2r_the_real_fftw_mpi_fails({16, 14}, 1, 16, 16, Place::Out, 0, 'c');
  c2r_the_real_fftw_mpi_fails({16, 14}, 1, 16, 16, Place::InButRank0, 0, 'c');
  c2r_the_real_fftw_mpi_fails({16, 14}, 1, 16, 16, Place::InButRank0, FFTW_PRESERVE_INPUT, '0');
  // The same planes either way, by other blocks, and in place on one rank:
  // the real FFTW MPI's, right.
  c2r_the_real_fftw_mpi_fails({5, 6}, 1, 0, (5 + np - 1) / np, Place::Out, FFTW_PRESERVE_INPUT, 'r');
  c2r_the_real_fftw_mpi_fails({16, 14}, 1, 16, 16, Place::In, 0, 'r');
}

}  // namespace

int main(int argc, char **argv) {
  mpi_test::start(&argc, &argv);
  every_case<double>();
  every_case<float>();
  large();
  c2r_the_real_fftw_mpi_fails();

  // A problem the real FFTW MPI refuses (a size 0): NULL on every rank.
  const ptrdiff_t zero[2] = {0, 4};
  fftw_complex *z = fftw_alloc_complex(16);
  setenv("GPUFFTW_MPI_PATH", "composed", 1);
  fftw_plan p = fftw_mpi_plan_many_dft(2, zero, 1, 0, 0, z, z, MPI_COMM_WORLD, FFTW_FORWARD, FFTW_ESTIMATE);
  expect(on_every_rank(p != nullptr) == 0, "a size 0 gave a plan");
  fftw_free(z);
  const int gpu = gpu_everywhere();
  estimated(gpu);
  measured();

  auto reentries = ext<unsigned long (*)(void)>("gpufftw_reentry_count");
  expect(!reentries || reentries() == 0, "gpufftw_reentry_count() is not 0");
  mpi_test::cleanup();
  const int failed = on_every_rank(bad > 0 ? 1 : 0) != 0;
  MPI_Allreduce(MPI_IN_PLACE, &on_gpu, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &through_nccl, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (me == 0)
    std::printf("np %d: %d plan pairs compared, %d of %d ranks' composed plans with local transforms on a GPU, "
                "%d exchanging through NCCL (auto: %s), worst relative L2 f32 %.2e f64 %.2e\nnp %d: %s\n",
                np, checked, on_gpu, checked * np, through_nccl,
                gpu ? "composed, every rank has a GPU" : "the real FFTW MPI, not every rank has a GPU", worst[0],
                worst[1], np, failed ? "FAIL" : "PASS");
  MPI_Finalize();
  return failed;
}
