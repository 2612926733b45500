// The real FFTW MPI alone (linked to it, no gpufftw): r2c, c2r and complex
// DFTs of rank 2 and 3 over small sizes, howmany 1-2, in and out of place,
// every combination of the transposed flags, FFTW_PRESERVE_INPUT, and pairs
// of blocks (the default, 1, 2, ceil(n/np), one more, all of the
// dimension: ranks left empty); each case's output against the serial
// FFTW, and 64 KiB guards before and after every array of the documented
// local_size (the larger of each side's own and, where one side is
// transposed, the transposed call). One line a case on rank 0.
// usage: mpi_real_sweep [FIRST] [STRIDE] [LAST]; SWEEP_MEASURE=1 plans with
// FFTW_MEASURE, SWEEP_C2R_PLAIN=1 runs only the c2r without the
// transposed flags. tools/mpi-real-sweep.sh builds and runs it.
#include <fftw3-mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

static int me, np;
enum Kind { C2C, R2C, C2R };
static const char *kname[] = {"c2c", "r2c", "c2r"};

struct Case {
  int kind, rnk;
  ptrdiff_t n[3];
  ptrdiff_t h, ib, ob;
  int ibsel, obsel;  // which choice each block was: 0 default, 1 explicit
  unsigned tflags, extra;
  int inplace;
};

static std::vector<Case> all_cases() {
  std::vector<Case> v;
  std::vector<std::vector<ptrdiff_t>> sizes;
  for (ptrdiff_t a : {2, 3, 4, 5, 7, 8, 16})
    for (ptrdiff_t b : {2, 3, 4, 6, 9, 14}) sizes.push_back({a, b});
  for (auto s : std::vector<std::vector<ptrdiff_t>>{{3, 4, 5}, {4, 3, 6}, {5, 6, 4}, {7, 5, 12}, {2, 7, 3}, {6, 2, 8}})
    sizes.push_back(s);
  const unsigned tfs[] = {0, FFTW_MPI_TRANSPOSED_IN, FFTW_MPI_TRANSPOSED_OUT,
                          FFTW_MPI_TRANSPOSED_IN | FFTW_MPI_TRANSPOSED_OUT};
  for (int kind = 0; kind < 3; ++kind)
    for (auto &s : sizes)
      for (ptrdiff_t h : {1, 2})
        for (int inplace = 0; inplace < 2; ++inplace)
          for (unsigned tf : tfs)
            for (unsigned extra : {0u, (unsigned)FFTW_PRESERVE_INPUT}) {
              if (extra && inplace) continue;
              Case c{};
              c.kind = kind, c.rnk = (int)s.size(), c.h = h, c.inplace = inplace, c.tflags = tf, c.extra = extra;
              for (int i = 0; i < c.rnk; ++i) c.n[i] = s[i];
              ptrdiff_t cn[3] = {c.n[0], c.n[1], c.rnk > 2 ? c.n[2] : 1};
              if (kind != C2C) cn[c.rnk - 1] = c.n[c.rnk - 1] / 2 + 1;
              const int in_dim = (tf & FFTW_MPI_TRANSPOSED_IN) ? 1 : 0, out_dim = (tf & FFTW_MPI_TRANSPOSED_OUT) ? 1 : 0;
              auto choices = [&](ptrdiff_t m) {
                std::vector<ptrdiff_t> b = {0};
                for (ptrdiff_t x : {(ptrdiff_t)1, (ptrdiff_t)2, (m + np - 1) / np, (m + np - 1) / np + 1, m})
                  if (x >= 1 && x <= m && (m + x - 1) / x <= np && std::find(b.begin(), b.end(), x) == b.end())
                    b.push_back(x);
                return b;
              };
              for (ptrdiff_t ib : choices(cn[in_dim]))
                for (ptrdiff_t ob : choices(cn[out_dim])) {
                  c.ib = ib, c.ob = ob;
                  v.push_back(c);
                }
            }
  return v;
}

// A side: global [N0][N1][rest] elements of `reals` reals, rank q holding
// cnt[q] planes of dim `dim` from start[q], stored [cnt][other][rest].
struct Side {
  int reals = 2, dim = 0;
  ptrdiff_t N0 = 1, N1 = 1, rest = 1;
  std::vector<ptrdiff_t> cnt, start;
  ptrdiff_t pad_every = 0, pad_used = 0, pad_h = 1;
  bool rnk2pad = false;
  bool used(ptrdiff_t i1, ptrdiff_t j) const {
    if (!pad_every) return true;
    if (rnk2pad) return i1 < pad_used;
    return (j / pad_h) % pad_every < pad_used;
  }
  size_t global() const { return (size_t)(N0 * N1 * rest * reals); }
  // local offset (in reals) of element (a-th plane, b, j)
};

static void counts(Side &s, ptrdiff_t c, ptrdiff_t st) {
  ptrdiff_t mine[2] = {c, st};
  std::vector<ptrdiff_t> a(2 * np);
  MPI_Allgather(mine, 2 * sizeof(ptrdiff_t), MPI_BYTE, a.data(), 2 * sizeof(ptrdiff_t), MPI_BYTE, MPI_COMM_WORLD);
  s.cnt.resize(np), s.start.resize(np);
  for (int q = 0; q < np; ++q) s.cnt[q] = a[2 * q], s.start[q] = a[2 * q + 1];
}

template <class F>
static void each_local(const Side &s, F f) {
  const ptrdiff_t other = s.dim ? s.N0 : s.N1;
  for (ptrdiff_t a = 0; a < s.cnt[me]; ++a)
    for (ptrdiff_t b = 0; b < other; ++b)
      for (ptrdiff_t j = 0; j < s.rest; ++j) {
        const ptrdiff_t i0 = s.dim ? b : s.start[me] + a, i1 = s.dim ? s.start[me] + a : b;
        for (int k = 0; k < s.reals; ++k)
          f(((a * other + b) * s.rest + j) * s.reals + k, ((i0 * s.N1 + i1) * s.rest + j) * s.reals + k, i1, j);
      }
}

static const size_t kGuard = 65536;  // bytes each side
static const unsigned char kCanary = 0xA7;

struct Buf {
  std::vector<unsigned char> *dummy = nullptr;
  unsigned char *base = nullptr;
  size_t bytes = 0;
  double *p() { return (double *)(base + kGuard); }
};
static Buf mk(size_t bytes) {
  Buf b;
  b.bytes = bytes;
  b.base = (unsigned char *)fftw_malloc(bytes + 2 * kGuard);
  memset(b.base, kCanary, kGuard);
  memset(b.base + kGuard, 0, bytes);
  memset(b.base + kGuard + bytes, kCanary, kGuard);
  return b;
}
// bytes written past the end, before the start
static void guards(const Buf &b, int *after, int *before) {
  *after = *before = 0;
  for (size_t i = 0; i < kGuard; ++i) {
    *before += b.base[i] != kCanary;
    *after += b.base[kGuard + b.bytes + i] != kCanary;
  }
}

static double rnd(unsigned long long &s) {
  s = s * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(s >> 11) / 9007199254740992.0 - 0.5;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  fftw_mpi_init();
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  const size_t first = argc > 1 ? strtoul(argv[1], 0, 10) : 0, stride = argc > 2 ? strtoul(argv[2], 0, 10) : 1;
  const size_t last = argc > 3 ? strtoul(argv[3], 0, 10) : (size_t)-1;
  std::vector<Case> cs = all_cases();
  if (me == 0) fprintf(stderr, "np %d: %zu cases\n", np, cs.size());
  for (size_t ci = first; ci < cs.size() && ci < last; ci += stride) {
    const Case &c = cs[ci];
    static const bool only_c2r = getenv("SWEEP_C2R_PLAIN") != nullptr;
    if (only_c2r && (c.kind != C2R || c.tflags)) continue;
    const int in_dim = (c.tflags & FFTW_MPI_TRANSPOSED_IN) ? 1 : 0, out_dim = (c.tflags & FFTW_MPI_TRANSPOSED_OUT) ? 1 : 0;
    ptrdiff_t cn[3] = {c.n[0], c.n[1], c.rnk > 2 ? c.n[2] : 1};
    const bool realk = c.kind != C2C;
    if (realk) cn[c.rnk - 1] = c.n[c.rnk - 1] / 2 + 1;
    ptrdiff_t sw[3] = {cn[1], cn[0], cn[2]};
    ptrdiff_t a0, s0, a1, s1;
    auto LS = [&](const ptrdiff_t *nn, ptrdiff_t b0, ptrdiff_t b1) {
      return fftw_mpi_local_size_many_transposed(c.rnk, nn, c.h, b0, b1, MPI_COMM_WORLD, &a0, &s0, &a1, &s1);
    };
    // The documented allocation: local_size of each side's cut (the
    // transposed call where one side is transposed), the larger.
    ptrdiff_t N;
    if (!in_dim && !out_dim) N = std::max(LS(cn, c.ib, cn[1]), LS(cn, c.ob, cn[1]));
    else if (!in_dim && out_dim) N = LS(cn, c.ib, c.ob);
    else if (in_dim && !out_dim) N = LS(sw, c.ib, c.ob);
    else N = std::max(LS(sw, c.ib, sw[1]), LS(sw, c.ob, sw[1]));
    // and each side's own local_size, whichever is larger
    N = std::max({N, in_dim ? LS(sw, c.ib, sw[1]) : LS(cn, c.ib, cn[1]), out_dim ? LS(sw, c.ob, sw[1]) : LS(cn, c.ob, cn[1])});
    Side in, out;
    auto side = [&](Side &s, int dim, ptrdiff_t b) {
      if (dim == 0) LS(cn, b, cn[1]);
      else LS(sw, b, sw[1]);
      counts(s, a0, s0);
      s.dim = dim;
    };
    side(in, in_dim, c.ib);
    side(out, out_dim, c.ob);
    ptrdiff_t rest = c.h * (c.rnk > 2 ? cn[2] : 1);
    for (Side *s : {&in, &out}) s->N0 = cn[0], s->N1 = cn[1], s->rest = rest;
    bool check_numbers = true;
    if (realk) {
      Side &rs = c.kind == R2C ? in : out;
      rs.reals = 1;
      const ptrdiff_t pad = 2 * cn[c.rnk - 1];
      rs.pad_every = pad, rs.pad_used = c.n[c.rnk - 1], rs.pad_h = c.h;
      if (c.rnk == 2) {
        rs.N1 = pad, rs.rnk2pad = true;
        if (rs.dim == 1) check_numbers = false;  // a rank-2 real side cut along its padded dimension
      } else {
        rs.rest = c.h * pad;
      }
    }
    const size_t bytes = (size_t)std::max<ptrdiff_t>(N, 1) * 2 * sizeof(double);
    Buf bi = mk(bytes), bo = c.inplace ? bi : mk(bytes);
    fftw_plan p = nullptr;
    const unsigned fl = (getenv("SWEEP_MEASURE") ? FFTW_MEASURE : FFTW_ESTIMATE) | c.tflags | c.extra;
    if (c.kind == C2C)
      p = fftw_mpi_plan_many_dft(c.rnk, c.n, c.h, c.ib, c.ob, (fftw_complex *)bi.p(), (fftw_complex *)bo.p(),
                                 MPI_COMM_WORLD, FFTW_FORWARD, fl);
    else if (c.kind == R2C)
      p = fftw_mpi_plan_many_dft_r2c(c.rnk, c.n, c.h, c.ib, c.ob, bi.p(), (fftw_complex *)bo.p(), MPI_COMM_WORLD, fl);
    else
      p = fftw_mpi_plan_many_dft_c2r(c.rnk, c.n, c.h, c.ib, c.ob, (fftw_complex *)bi.p(), bo.p(), MPI_COMM_WORLD, fl);
    int planned = p != nullptr, all_planned;
    MPI_Allreduce(&planned, &all_planned, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    double err = -1;
    int over_after = 0, over_before = 0, empty_in = 0, empty_out = 0, rows_differ = 0;
    for (int q = 0; q < np; ++q) {
      empty_in += in.cnt[q] == 0, empty_out += out.cnt[q] == 0;
      rows_differ += in.cnt[q] != out.cnt[q];
    }
    if (all_planned) {
      // global input (the same on every rank) and its serial transform
      unsigned long long seed = 12345 + ci;
      std::vector<double> gin(in.global(), 0.0), want(out.global(), 0.0);
      int n[3] = {(int)c.n[0], (int)c.n[1], (int)c.n[2]}, cnn[3] = {(int)cn[0], (int)cn[1], (int)cn[2]};
      int pad[3] = {n[0], n[1], n[2]};
      if (realk) pad[c.rnk - 1] = 2 * cnn[c.rnk - 1];
      const int h = (int)c.h;
      if (c.kind == C2R) {
        std::vector<double> r(out.global(), 0.0);
        for (auto &x : r) x = rnd(seed);
        fftw_plan q = fftw_plan_many_dft_r2c(c.rnk, n, h, r.data(), pad, h, 1, (fftw_complex *)gin.data(), cnn, h, 1,
                                             FFTW_ESTIMATE);
        fftw_execute(q), fftw_destroy_plan(q);
      } else {
        for (auto &x : gin) x = rnd(seed);
      }
      fftw_plan q;
      if (c.kind == C2C)
        q = fftw_plan_many_dft(c.rnk, n, h, (fftw_complex *)gin.data(), nullptr, h, 1, (fftw_complex *)want.data(),
                               nullptr, h, 1, FFTW_FORWARD, FFTW_ESTIMATE);
      else if (c.kind == R2C)
        q = fftw_plan_many_dft_r2c(c.rnk, n, h, gin.data(), pad, h, 1, (fftw_complex *)want.data(), cnn, h, 1,
                                   FFTW_ESTIMATE);
      else {
        std::vector<double> tmp(gin);
        q = fftw_plan_many_dft_c2r(c.rnk, n, h, (fftw_complex *)tmp.data(), cnn, h, 1, want.data(), pad, h, 1,
                                   FFTW_ESTIMATE);
        fftw_execute(q), fftw_destroy_plan(q);
        q = nullptr;
      }
      if (q) fftw_execute(q), fftw_destroy_plan(q);
      double *li = bi.p(), *lo = bo.p();
      each_local(in, [&](ptrdiff_t l, ptrdiff_t g, ptrdiff_t, ptrdiff_t) { li[l] = gin[g]; });
      fftw_execute(p);
      double dw[2] = {0, 0};
      if (check_numbers)
        each_local(out, [&](ptrdiff_t l, ptrdiff_t g, ptrdiff_t i1, ptrdiff_t j) {
          if (!out.used(i1, j)) return;
          const double e = std::isfinite(lo[l]) ? lo[l] - want[g] : 1e150;
          dw[0] += e * e, dw[1] += want[g] * want[g];
        });
      MPI_Allreduce(MPI_IN_PLACE, dw, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      if (check_numbers) err = std::sqrt(dw[0] / (dw[1] > 0 ? dw[1] : 1));
      int a, b;
      for (Buf *x : {&bi, &bo}) {
        guards(*x, &a, &b);
        over_after = std::max(over_after, a), over_before = std::max(over_before, b);
      }
      MPI_Allreduce(MPI_IN_PLACE, &over_after, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
      MPI_Allreduce(MPI_IN_PLACE, &over_before, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    }
    if (p) fftw_destroy_plan(p);
    fftw_free(bi.base);
    if (!c.inplace) fftw_free(bo.base);
    if (me == 0) {
      char ns[64];
      if (c.rnk == 2) snprintf(ns, sizeof ns, "%tdx%td", c.n[0], c.n[1]);
      else snprintf(ns, sizeof ns, "%tdx%tdx%td", c.n[0], c.n[1], c.n[2]);
      printf("case=%zu np=%d kind=%s n=%s h=%td ib=%td ob=%td tin=%d tout=%d inplace=%d preserve=%d planned=%d "
             "err=%.3g over_after=%d over_before=%d empty_in=%d empty_out=%d rows_differ=%d incnt=",
             ci, np, kname[c.kind], ns, c.h, c.ib, c.ob, in_dim, out_dim, c.inplace, c.extra ? 1 : 0, all_planned, err,
             over_after, over_before, empty_in, empty_out, rows_differ);
      for (int q = 0; q < np; ++q) printf("%s%td", q ? "," : "", in.cnt[q]);
      printf(" outcnt=");
      for (int q = 0; q < np; ++q) printf("%s%td", q ? "," : "", out.cnt[q]);
      printf("\n");
      fflush(stdout);
    }
  }
  MPI_Finalize();
  return 0;
}
