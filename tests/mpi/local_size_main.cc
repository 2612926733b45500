// Every fftw_mpi_local_size_* and fftwf_mpi_local_size_* (and their Fortran
// 2003 wrappers) over a sweep of ranks, sizes, block sizes, howmany, signs
// and flags, on MPI_COMM_WORLD and on a split communicator. Each result is
// checked against gpufftw's own copy of the arithmetic (mpi/composed/local_size.cc,
// compiled in) and hashed; rank 0 prints every rank's hash, so the same
// program run with and without gpufftw (tests/mpi/local_size_test.sh) must
// print the same lines. Exits 1 on any mismatch.
#include <fftw3-mpi.h>

#include <cstdint>
#include <cstdio>
#include <vector>

#include "mpi/composed/local_size.h"

extern "C" {
// Declared as FFTW's mpi/f03-wrap.c declares them (fftw3-mpi.h does not).
ptrdiff_t fftw_mpi_local_size_many_transposed_f03(int, const ptrdiff_t *, ptrdiff_t, ptrdiff_t, ptrdiff_t, MPI_Fint,
                                                  ptrdiff_t *, ptrdiff_t *, ptrdiff_t *, ptrdiff_t *);
ptrdiff_t fftwf_mpi_local_size_many_1d_f03(ptrdiff_t, ptrdiff_t, MPI_Fint, int, unsigned, ptrdiff_t *, ptrdiff_t *,
                                           ptrdiff_t *, ptrdiff_t *);
ptrdiff_t fftw_mpi_local_size_3d_transposed_f03(ptrdiff_t, ptrdiff_t, ptrdiff_t, MPI_Fint, ptrdiff_t *, ptrdiff_t *,
                                                ptrdiff_t *, ptrdiff_t *);
}

namespace {

uint64_t hash = 1469598103934665603ull;
long cases = 0, mismatches = 0;
int my_rank = 0;

void mix(ptrdiff_t v) {
  for (int i = 0; i < 8; ++i) {
    hash ^= static_cast<uint64_t>(v >> (8 * i)) & 0xff;
    hash *= 1099511628211ull;
  }
}

// One call's results (return value, then out-parameters) against the expected.
void check(const char *what, const std::vector<ptrdiff_t> &args, const std::vector<ptrdiff_t> &got,
           const std::vector<ptrdiff_t> &want) {
  ++cases;
  for (ptrdiff_t v : got) mix(v);
  if (got == want) return;
  if (++mismatches <= 10) {
    std::fprintf(stderr, "rank %d: %s(", my_rank, what);
    for (ptrdiff_t a : args) std::fprintf(stderr, " %td", a);
    std::fprintf(stderr, " ): got");
    for (ptrdiff_t v : got) std::fprintf(stderr, " %td", v);
    std::fprintf(stderr, ", expected");
    for (ptrdiff_t v : want) std::fprintf(stderr, " %td", v);
    std::fprintf(stderr, "\n");
  }
}

void sweep(MPI_Comm comm) {
  int me, np;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &np);
  const MPI_Fint fcomm = MPI_Comm_c2f(comm);
  const ptrdiff_t sizes[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 13, 16, 17, 30, 31, 64, 100, 127, 128, 255};
  const ptrdiff_t blocks[] = {FFTW_MPI_DEFAULT_BLOCK, 1, 2, 3, 5, 8, 33};
  const ptrdiff_t howmanys[] = {1, 2, 3, 7};
  using gpufftw::mpi::local_size_many_transposed;
  using gpufftw::mpi::local_size_many_1d;
  // rank 1 to 4; the first two sizes range over the sweep, the others are small.
  for (int rnk = 1; rnk <= 4; ++rnk)
    for (ptrdiff_t n0 : sizes)
      for (ptrdiff_t n1 : sizes) {
        if (rnk == 1 && n1 != 1) continue;
        const ptrdiff_t n[4] = {n0, n1, 3 + (n0 % 4), 2};
        for (ptrdiff_t hm : howmanys)
          // The real FFTW MPI aborts (CK: sign) on a rank-1 local_size_many
          // with fewer transforms than processes: local_size_many_1d's case.
          if (rnk > 1 || hm >= np)
          for (ptrdiff_t b0 : blocks)
            for (ptrdiff_t b1 : blocks) {
              if ((rnk > 2 || n0 > 64 || n1 > 64) && (b1 != b0 || hm > 2)) continue;  // bounded
              ptrdiff_t w[4], g[4];
              ptrdiff_t wr = local_size_many_transposed(rnk, n, hm, b0, b1, me, np, w, w + 1, w + 2, w + 3);
              std::vector<ptrdiff_t> args = {rnk, n0, n1, hm, b0, b1}, want = {wr, w[0], w[1], w[2], w[3]};
              ptrdiff_t r = fftw_mpi_local_size_many_transposed(rnk, n, hm, b0, b1, comm, g, g + 1, g + 2, g + 3);
              check("fftw_mpi_local_size_many_transposed", args, {r, g[0], g[1], g[2], g[3]}, want);
              r = fftwf_mpi_local_size_many_transposed(rnk, n, hm, b0, b1, comm, g, g + 1, g + 2, g + 3);
              check("fftwf_mpi_local_size_many_transposed", args, {r, g[0], g[1], g[2], g[3]}, want);
              r = fftw_mpi_local_size_many_transposed_f03(rnk, n, hm, b0, b1, fcomm, g, g + 1, g + 2, g + 3);
              check("fftw_mpi_local_size_many_transposed_f03", args, {r, g[0], g[1], g[2], g[3]}, want);
              if (b1 != FFTW_MPI_DEFAULT_BLOCK) continue;
              // local_size_many: the transposed one with block1 = n[1].
              wr = local_size_many_transposed(rnk, n, hm, b0, rnk > 1 ? n[1] : 0, me, np, w, w + 1, w + 2, w + 3);
              want = {wr, w[0], w[1]};
              r = fftw_mpi_local_size_many(rnk, n, hm, b0, comm, g, g + 1);
              check("fftw_mpi_local_size_many", args, {r, g[0], g[1]}, want);
              r = fftwf_mpi_local_size_many(rnk, n, hm, b0, comm, g, g + 1);
              check("fftwf_mpi_local_size_many", args, {r, g[0], g[1]}, want);
              if (hm != 1 || b0 != FFTW_MPI_DEFAULT_BLOCK) continue;
              wr = local_size_many_transposed(rnk, n, 1, 0, 0, me, np, w, w + 1, w + 2, w + 3);
              want = {wr, w[0], w[1], w[2], w[3]};
              r = fftw_mpi_local_size_transposed(rnk, n, comm, g, g + 1, g + 2, g + 3);
              check("fftw_mpi_local_size_transposed", args, {r, g[0], g[1], g[2], g[3]}, want);
              r = fftwf_mpi_local_size_transposed(rnk, n, comm, g, g + 1, g + 2, g + 3);
              check("fftwf_mpi_local_size_transposed", args, {r, g[0], g[1], g[2], g[3]}, want);
              if (rnk == 2) {
                r = fftw_mpi_local_size_2d_transposed(n0, n1, comm, g, g + 1, g + 2, g + 3);
                check("fftw_mpi_local_size_2d_transposed", args, {r, g[0], g[1], g[2], g[3]}, want);
                r = fftwf_mpi_local_size_2d_transposed(n0, n1, comm, g, g + 1, g + 2, g + 3);
                check("fftwf_mpi_local_size_2d_transposed", args, {r, g[0], g[1], g[2], g[3]}, want);
              }
              if (rnk == 3) {
                r = fftw_mpi_local_size_3d_transposed(n0, n1, n[2], comm, g, g + 1, g + 2, g + 3);
                check("fftw_mpi_local_size_3d_transposed", args, {r, g[0], g[1], g[2], g[3]}, want);
                r = fftwf_mpi_local_size_3d_transposed(n0, n1, n[2], comm, g, g + 1, g + 2, g + 3);
                check("fftwf_mpi_local_size_3d_transposed", args, {r, g[0], g[1], g[2], g[3]}, want);
                r = fftw_mpi_local_size_3d_transposed_f03(n0, n1, n[2], fcomm, g, g + 1, g + 2, g + 3);
                check("fftw_mpi_local_size_3d_transposed_f03", args, {r, g[0], g[1], g[2], g[3]}, want);
              }
              wr = local_size_many_transposed(rnk, n, 1, 0, rnk > 1 ? n[1] : 0, me, np, w, w + 1, w + 2, w + 3);
              want = {wr, w[0], w[1]};
              r = fftw_mpi_local_size(rnk, n, comm, g, g + 1);
              check("fftw_mpi_local_size", args, {r, g[0], g[1]}, want);
              r = fftwf_mpi_local_size(rnk, n, comm, g, g + 1);
              check("fftwf_mpi_local_size", args, {r, g[0], g[1]}, want);
              if (rnk == 2) {
                r = fftw_mpi_local_size_2d(n0, n1, comm, g, g + 1);
                check("fftw_mpi_local_size_2d", args, {r, g[0], g[1]}, want);
                r = fftwf_mpi_local_size_2d(n0, n1, comm, g, g + 1);
                check("fftwf_mpi_local_size_2d", args, {r, g[0], g[1]}, want);
              }
              if (rnk == 3) {
                r = fftw_mpi_local_size_3d(n0, n1, n[2], comm, g, g + 1);
                check("fftw_mpi_local_size_3d", args, {r, g[0], g[1]}, want);
                r = fftwf_mpi_local_size_3d(n0, n1, n[2], comm, g, g + 1);
                check("fftwf_mpi_local_size_3d", args, {r, g[0], g[1]}, want);
              }
            }
      }
  // rank 0: the real one returns howmany and leaves the outputs be.
  {
    const ptrdiff_t n[1] = {1};
    ptrdiff_t g[4] = {-7, -7, -7, -7};
    ptrdiff_t r = fftw_mpi_local_size_many_transposed(0, n, 5, 0, 0, comm, g, g + 1, g + 2, g + 3);
    check("fftw_mpi_local_size_many_transposed(rnk 0)", {0, 5}, {r, g[0], g[1], g[2], g[3]}, {5, 1, 0, 1, 0});
  }
  // One dimension: every size 1..300 and some larger, both signs, the
  // scrambling and transposition flags and howmany (bigvec when >= ranks).
  std::vector<ptrdiff_t> n1d;
  for (ptrdiff_t v = 1; v <= 300; ++v) n1d.push_back(v);
  for (ptrdiff_t v : {512, 1000, 1024, 1031, 4096, 6561, 10007, 65536, 100000, 1 << 20, 3 * 5 * 7 * 11 * 13 * 17})
    n1d.push_back(v);
  const unsigned flag_set[] = {FFTW_ESTIMATE,
                               FFTW_MEASURE,
                               FFTW_MPI_SCRAMBLED_IN,
                               FFTW_MPI_SCRAMBLED_OUT,
                               FFTW_MPI_SCRAMBLED_IN | FFTW_MPI_SCRAMBLED_OUT,
                               FFTW_MPI_TRANSPOSED_IN,
                               FFTW_MPI_TRANSPOSED_OUT,
                               FFTW_MPI_TRANSPOSED_IN | FFTW_MPI_TRANSPOSED_OUT | FFTW_DESTROY_INPUT};
  for (ptrdiff_t n0 : n1d)
    for (int sign : {FFTW_FORWARD, FFTW_BACKWARD})
      for (unsigned flags : flag_set)
        for (ptrdiff_t hm : {1, 2, 3, 4, 5}) {
          ptrdiff_t w[4], g[4];
          ptrdiff_t wr = local_size_many_1d(n0, hm, me, np, sign, flags, w, w + 1, w + 2, w + 3);
          std::vector<ptrdiff_t> args = {n0, hm, sign, static_cast<ptrdiff_t>(flags)}, want = {wr, w[0], w[1], w[2], w[3]};
          ptrdiff_t r = fftw_mpi_local_size_many_1d(n0, hm, comm, sign, flags, g, g + 1, g + 2, g + 3);
          check("fftw_mpi_local_size_many_1d", args, {r, g[0], g[1], g[2], g[3]}, want);
          r = fftwf_mpi_local_size_many_1d(n0, hm, comm, sign, flags, g, g + 1, g + 2, g + 3);
          check("fftwf_mpi_local_size_many_1d", args, {r, g[0], g[1], g[2], g[3]}, want);
          r = fftwf_mpi_local_size_many_1d_f03(n0, hm, fcomm, sign, flags, g, g + 1, g + 2, g + 3);
          check("fftwf_mpi_local_size_many_1d_f03", args, {r, g[0], g[1], g[2], g[3]}, want);
          if (hm != 1) continue;
          r = fftw_mpi_local_size_1d(n0, comm, sign, flags, g, g + 1, g + 2, g + 3);
          check("fftw_mpi_local_size_1d", args, {r, g[0], g[1], g[2], g[3]}, want);
          r = fftwf_mpi_local_size_1d(n0, comm, sign, flags, g, g + 1, g + 2, g + 3);
          check("fftwf_mpi_local_size_1d", args, {r, g[0], g[1], g[2], g[3]}, want);
        }
}

}  // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int np;
  MPI_Comm_rank(MPI_COMM_WORLD, &my_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  sweep(MPI_COMM_WORLD);
  // A communicator other than MPI_COMM_WORLD: the odd and the even ranks.
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, my_rank % 2, my_rank, &half);
  sweep(half);
  MPI_Comm_free(&half);
  unsigned long long mine[3] = {hash, static_cast<unsigned long long>(cases), static_cast<unsigned long long>(mismatches)};
  std::vector<unsigned long long> all(3 * static_cast<size_t>(np));
  MPI_Gather(mine, 3, MPI_UNSIGNED_LONG_LONG, all.data(), 3, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
  long total_bad = 0;
  if (my_rank == 0) {
    for (int r = 0; r < np; ++r) {
      std::printf("np %d rank %d: %llu calls, hash %016llx, %llu differ from gpufftw's own arithmetic\n", np, r,
                  all[3 * r + 1], all[3 * r], all[3 * r + 2]);
      total_bad += static_cast<long>(all[3 * r + 2]);
    }
    std::printf("%s\n", total_bad ? "FAIL" : "PASS");
  }
  MPI_Bcast(&total_bad, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return total_bad ? 1 : 0;
}
